import { fingerprint } from '../../src/alerts/alert';
import { stack, type Stack } from '../support/daemon-harness';
import { PAGERDUTY_ROUTING_KEY } from '../support/doubles/pagerduty';
import { waitFor } from '../support/wait';
import { chatDoubles, HOSTILE } from './chat-fixtures';

/**
 * From an upstream change to Discord, Slack and PagerDuty, through the daemon watching the
 * reference exchange over HTTP: a network's withdrawals close with a hostile message, each
 * service is told (inert text, no ping), and each is told again when they reopen.
 */
const RULES = `
rules:
  - alert: WithdrawDisabled
    state: withdraw_disabled
    match: { coin: USDT }
    severity: critical
  - alert: MaintenanceMessage
    change: [withdraw_desc_set]
    match: { coin: USDT }
    severity: info
`;

const TRC = { coin: 'USDT', network: 'Tron(TRC20)' };
const LABELS = { alertname: 'WithdrawDisabled', exchange: 'main', severity: 'critical', coin: 'USDT', network: 'Tron(TRC20)', chain: 'tron', kind: 'withdraw_disabled' };

jest.setTimeout(60_000);

describe('the chat receivers, end to end from an upstream change', () => {
  let s: Stack;
  let doubles: Awaited<ReturnType<typeof chatDoubles>>;
  beforeAll(async () => {
    doubles = await chatDoubles();
    const { discord, slack, pd } = doubles;
    s = await stack(RULES, {
      receivers: () => `    - name: community
      discord: { webhook_url: "${discord.webhookUrl}" }
    - name: ops
      slack: { webhook_url: "${slack.webhookUrl}" }
    - name: pager
      pagerduty: { routing_key: "${PAGERDUTY_ROUTING_KEY}", url: "${pd.enqueueUrl}" }
`,
    });
  });
  afterAll(async () => {
    await s.close();
    await doubles.stop();
  });

  it('tells each service when withdrawals close and again when they reopen', async () => {
    const daemon = await s.start();
    const { discord, slack, pd } = doubles;
    const fp = fingerprint(LABELS);
    const closedIn = (texts: (string | undefined)[]): boolean => texts.some((t) => t?.includes('WithdrawDisabled') === true);

    s.sim.control.apply({ action: 'set_network', ...TRC, set: { withdrawEnable: false, withdrawDesc: HOSTILE } });
    await waitFor(() => closedIn(discord.messages.map((m) => m.body.content)) && closedIn(slack.messages.map((m) => m.body.text)) && pd.incidents.get(fp)?.status === 'triggered', 'the three services to be told');

    const told = discord.messages.find((m) => m.body.content?.includes('WithdrawDisabled'));
    expect(told?.pings).toEqual([]);
    expect(told?.body.content).toBe('🔴 **\\[FIRING:1\\] WithdrawDisabled main**');
    expect(told?.body.embeds?.[0]).toMatchObject({ title: '🔴 USDT withdrawals disabled on Tron(TRC20) (main)', url: `${daemon.url}/#${fp}` });
    expect(told?.body.embeds?.[0]?.fields?.at(-1)?.value).toContain('\\<script\\>alert(1)\\</script\\> @\u200beveryone');

    const said = slack.messages.find((m) => m.body.text?.includes('WithdrawDisabled'));
    expect(said?.specials).toEqual([`<${daemon.url}/|status page>`]);
    expect(said?.body.blocks?.[1]?.text?.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt; @everyone @here &lt;@123&gt;');

    expect(pd.incidents.get(fp)?.events[0]).toMatchObject({ event_action: 'trigger', dedup_key: fp, payload: { source: 'main', severity: 'critical', summary: `USDT withdrawals disabled on Tron(TRC20) (main): ${HOSTILE}` } });
    // The message set in the same poll is a change alert: its incident opened and closed at once.
    const changes = (): { status: string; events: { event_action?: string }[] }[] => [...pd.incidents.values()].filter((i) => i.events[0]?.payload?.class === 'withdraw_desc_set');
    await waitFor(() => changes().some((i) => i.status === 'resolved'), 'the change alert\'s incident');
    const events = changes();
    expect(events.map((i) => [i.status, i.events.map((e) => e.event_action)])).toEqual([['resolved', ['trigger', 'resolve']]]);

    s.sim.control.apply({ action: 'set_network', ...TRC, set: { withdrawEnable: true, withdrawDesc: '' } });
    await waitFor(() => pd.incidents.get(fp)?.status === 'resolved'
      && discord.messages.some((m) => m.body.content?.includes('RESOLVED')) && slack.messages.some((m) => m.body.text?.includes('RESOLVED')), 'the resolutions');
    expect(discord.messages.find((m) => m.body.content?.includes('RESOLVED'))?.body.embeds?.[0]).toMatchObject({ title: '✅ Resolved: USDT withdrawals disabled on Tron(TRC20) (main)', color: 0x2ba84a });
    expect(slack.messages.find((m) => m.body.text?.includes('RESOLVED'))?.body.text).toBe('✅ [RESOLVED] WithdrawDisabled main');
    expect(pd.incidents.get(fp)?.events.map((e) => e.event_action)).toEqual(['trigger', 'resolve']);
  });
});
