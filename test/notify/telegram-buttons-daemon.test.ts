import { stack, type Stack } from '../support/daemon-harness';
import { TelegramDouble } from '../support/doubles/telegram';
import { metricValue } from '../support/loopback';
import { waitFor } from '../support/wait';

jest.setTimeout(60_000);

const TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw';
const CHAT = -1001234567890;
const RULES = `
rules:
  - alert: WithdrawDisabled
    state: withdraw_disabled
    match: { coin: "USDT" }
    severity: critical
`;
const ADA = { id: 42, is_bot: false, first_name: 'Ada', username: 'ada' };
const BOB = { id: 7, is_bot: false, first_name: 'Bob' };

/**
 * One tap, through the daemon watching the reference exchange: a closure's message carries the
 * buttons, a press by someone allowed_users does not list is refused, a press by someone it lists
 * makes the API's silence over the alert's labels, the message says so, and the alert's
 * resolution and its next closure are not told (silenced, as in Alertmanager).
 */
describe('Telegram silence buttons in the daemon', () => {
  let tg: TelegramDouble;
  let s: Stack;
  beforeAll(async () => {
    tg = await new TelegramDouble(TOKEN).chat(CHAT).start();
    s = await stack(RULES, {
      receivers: (hook) => `    - name: hook\n      webhook: { url: "${hook}/hook" }\n    - name: desk\n      telegram: { bot_token: "${TOKEN}", chat_id: "${CHAT}", api_url: "${tg.url}", commands: true, allowed_users: [${ADA.id}] }\n`,
    });
  });
  afterAll(async () => {
    await s.close();
    await tg.stop();
  });

  const told = () => tg.sent.filter((m) => m.params.parse_mode === 'HTML');

  it('a press silences the alert the message lists; the resolution and the next closure are not told', async () => {
    const url = (await s.start()).url as string;
    s.sim.control.apply({ action: 'set_network', coin: 'USDT', network: 'Tron(TRC20)', set: { withdrawEnable: false, withdrawDesc: 'upgrade @everyone' } });
    await waitFor(() => told().length === 1, 'the closure told');
    const message = told()[0];
    const data = (message?.replyMarkup?.inline_keyboard[0] ?? []).map((b) => b.callback_data as string);
    expect(message?.replyMarkup?.inline_keyboard[0]?.map((b) => b.text)).toEqual(['Silence 1h', 'Silence 24h']);
    expect(data).toEqual([expect.stringMatching(/^silence:1h:[A-Za-z0-9_-]{16}$/), expect.stringMatching(/^silence:24h:[A-Za-z0-9_-]{16}$/)]);

    // Bob is not in allowed_users: refused, counted, nothing changes.
    tg.press(CHAT, message?.messageId ?? 0, data[1] as string, { from: BOB });
    await waitFor(() => tg.answers.length === 1, 'Bob answered');
    expect(tg.answers[0]).toMatchObject({ text: "Sorry, only the people this bot's allowed_users lists may silence alerts. Your Telegram id is 7: ask whoever runs spotwatch to add it.", showAlert: true });
    expect(await metricValue(url, 'spotwatch_bot_updates_ignored_total', 'receiver="desk",reason="not_allowed"')).toBe(1);

    // Ada is: the API's silence over every label of the alert, for 24h.
    const pressedAt = Date.now();
    tg.press(CHAT, message?.messageId ?? 0, data[1] as string, { from: ADA });
    await waitFor(() => tg.edits.length === 1, 'the message edited');
    const alerts = (await (await fetch(`${url}/api/v1/alerts`)).json()) as { data: { labels: Record<string, string> }[] };
    const labels = alerts.data[0]?.labels ?? {};
    type Api = { data: { matchers: { label: string; pattern: string }[]; createdBy: string; comment: string; state: string; endsAt: string }[] };
    const api = (await (await fetch(`${url}/api/v1/silences`)).json()) as Api;
    expect(api.data).toHaveLength(1);
    expect(api.data[0]).toMatchObject({ createdBy: 'telegram:@ada', comment: 'Silence 24h (a Telegram button)', state: 'active' });
    expect(api.data[0]?.matchers.map((m) => m.label).sort()).toEqual(Object.keys(labels).sort());
    const ends = Date.parse(api.data[0]?.endsAt ?? '');
    expect(ends - pressedAt).toBeGreaterThanOrEqual(24 * 3_600_000 - 1_000);
    expect(ends - pressedAt).toBeLessThanOrEqual(24 * 3_600_000 + 5_000);
    const edited = tg.messageOf(CHAT, message?.messageId ?? 0);
    expect(edited?.text.split('\n').at(-1)).toMatch(/^🔕 Silenced by @ada until \d{4}-\d\d-\d\d \d\d:\d\d UTC \(1d\)\. \/unsilence [0-9a-f]{8} ends it\.$/);
    expect(edited?.reply_markup).toBeUndefined();
    expect(tg.answers[1]).toEqual({ queryId: expect.any(String) as string, text: expect.stringMatching(/^Silenced for 24h, until \d{4}-\d\d-\d\d \d\d:\d\d UTC\.$/) as string });

    // Silenced: the reopening and the next closure are not told in the chat.
    s.sim.control.apply({ action: 'set_network', coin: 'USDT', network: 'Tron(TRC20)', set: { withdrawEnable: true, withdrawDesc: '' } });
    await waitFor(async () => ((await (await fetch(`${url}/api/v1/alerts`)).json()) as { data: unknown[] }).data.length === 0, 'the alert resolved');
    s.sim.control.apply({ action: 'set_network', coin: 'USDT', network: 'Tron(TRC20)', set: { withdrawEnable: false } });
    s.sim.control.apply({ action: 'set_network', coin: 'USDT', network: 'Ethereum(ERC20)', set: { withdrawEnable: false } });
    await waitFor(() => told().length === 2, 'the ERC20 closure told');
    expect(told()[1]?.text).toContain('Ethereum(ERC20)');
    expect(told()[1]?.text).not.toContain('Tron(TRC20)');
    expect(told().map((m) => m.text.split('\n')[0])).toEqual(['🔴 FIRING · WithdrawDisabled · main · 1 alert', '🔴 FIRING · WithdrawDisabled · main · 1 alert']);
    // The webhook is muted too: a silence is the daemon's, not one receiver's.
    expect(s.bodies().map((b) => [b.status, b.alerts.map((a) => a.labels.network)])).toEqual([['firing', ['Tron(TRC20)']], ['firing', ['Ethereum(ERC20)']]]);
  });
});
