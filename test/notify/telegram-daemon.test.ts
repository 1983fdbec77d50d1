import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
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
    match: { coin: "USDT|BTC" }
    severity: critical
`;

describe('the Telegram receiver in the daemon, end to end', () => {
  let tg: TelegramDouble;
  let s: Stack;
  const telegram = (hookUrl: string, withBot = true): string =>
    `    - name: hook\n      webhook: { url: "${hookUrl}/hook" }\n${withBot ? `    - name: desk\n      telegram: { bot_token: "${TOKEN}", chat_id: "${CHAT}", api_url: "${tg.url}", commands: true }\n` : ''}`;

  beforeAll(async () => {
    tg = await new TelegramDouble(TOKEN).chat(CHAT).start();
    s = await stack(RULES, { receivers: (hook) => telegram(hook) });
  });
  afterAll(async () => {
    await s.close();
    await tg.stop();
  });

  /** Messages the receiver sent (HTML), as Telegram shows them; replies to commands are plain. */
  const notices = () => tg.sent.filter((m) => m.params.parse_mode === 'HTML').map((m) => m.text);
  const replies = () => tg.sent.filter((m) => m.params.parse_mode === undefined).map((m) => m.text);
  async function ask(text: string): Promise<string> {
    const before = replies().length;
    tg.message(CHAT, text);
    await waitFor(() => replies().length > before, `the reply to ${text}`);
    return replies()[before] as string;
  }

  it('tells an upstream closure, answers commands from its chat, and a /silence from the chat mutes', async () => {
    const daemon = await s.start();
    const url = daemon.url as string;

    // 1. An upstream change reaches the chat, escaped and defused.
    s.sim.control.apply({ action: 'set_network', coin: 'USDT', network: 'Tron(TRC20)', set: { withdrawEnable: false, withdrawDesc: 'Wallet <b>maintenance</b> @everyone' } });
    await waitFor(() => notices().length === 1, 'the Telegram message');
    expect(notices()[0]?.split('\n')).toEqual([
      '🔴 FIRING · WithdrawDisabled · main · 1 alert',
      '',
      '🔴 USDT withdrawals disabled on Tron(TRC20) (main)',
      'USDT · Tron(TRC20) (tron) · main',
      expect.stringMatching(/^since \d{4}-\d\d-\d\d \d\d:\d\d UTC$/),
      '💬 Wallet <b>maintenance</b> @\u2060everyone',
      '',
      'Status page',
    ]);

    // 2. Commands, from the configured chat.
    expect((await ask('/status')).split('\n')).toEqual([
      '1 exchange · 1 alert firing',
      expect.stringMatching(/^main: ✅ up · 40 coins · \d+ networks, \d+ closed · 1 firing · polled \d+(ms|s) ago$/),
    ]);
    expect(await ask('/closed usdt')).toMatch(/^1 closed network of usdt, newest first:\nUSDT · Tron\(TRC20\) · main: withdrawals closed since \d{4}-\d\d-\d\d \d\d:\d\d UTC \(\d+s\)\n {3}“Wallet <b>maintenance<\/b> @\u2060everyone”$/);

    // 3. Another chat is ignored, and counted.
    tg.message(-100999, '/status');
    await waitFor(async () => (await metricValue(url, 'spotwatch_bot_updates_ignored_total', 'receiver="desk",reason="other_chat"')) === 1, 'the ignored update counted');

    // 4. A silence from the chat is the API's silence, and mutes.
    const silenced = await ask('/silence coin=USDT network=Ethereum(ERC20) 2h wallet upgrade');
    expect(silenced).toMatch(/^Silenced coin=USDT network=Ethereum\(ERC20\) until .+ \(2h\)\. ID ([0-9a-f]{8}): \/unsilence \1 ends it\.$/);
    const api = (await (await fetch(`${url}/api/v1/silences`)).json()) as { data: { id: string; matchers: unknown; comment: string; createdBy: string; state: string }[] };
    expect(api.data).toEqual([expect.objectContaining({ matchers: [{ label: 'coin', pattern: '/USDT/' }, { label: 'network', pattern: '/Ethereum\\(ERC20\\)/' }], comment: 'wallet upgrade', createdBy: 'telegram:@ada', state: 'active' })]);
    s.sim.control.apply([
      { action: 'set_network', coin: 'USDT', network: 'Ethereum(ERC20)', set: { withdrawEnable: false } },
      { action: 'set_network', coin: 'BTC', network: 'BTC', set: { withdrawEnable: false } },
    ]);
    await waitFor(() => notices().some((t) => t.includes('BTC · BTC (bitcoin) · main')), 'the BTC closure told');
    const alerts = (await (await fetch(`${url}/api/v1/alerts`)).json()) as { data: { labels: Record<string, string> }[] };
    expect(alerts.data.map((a) => a.labels.network).sort()).toEqual(['BTC', 'Ethereum(ERC20)', 'Tron(TRC20)']);
    expect(notices().join('\n')).not.toContain('Ethereum(ERC20)');

    // 5. /silences and /unsilence, as the API sees them.
    const id = /ID ([0-9a-f]{8})/.exec(silenced)?.[1] as string;
    expect(await ask('/silences')).toMatch(new RegExp(`^1 silence:\\n${id} coin=USDT network=Ethereum\\(ERC20\\) · until .+ \\(1h 59m left\\) · wallet upgrade · by telegram:@\u2060ada$`));
    expect(await ask(`/unsilence ${id}`)).toBe(`Silence ${id} (coin=USDT network=Ethereum(ERC20)) ended.`);
    const after = (await (await fetch(`${url}/api/v1/silences`)).json()) as { data: { state: string }[] };
    expect(after.data.map((x) => x.state)).toEqual(['expired']);
  });

  it('stops polling when the receiver is removed by a reload, starts again when it is back, and answers nothing twice across a restart', async () => {
    const daemon = s.daemon ?? (await s.start());
    await s.reconfigure({ receivers: (hook) => telegram(hook, false) });
    expect((await daemon.reload()).ok).toBe(true);
    await waitFor(() => !tg.polling, 'the long poll abandoned');
    const polls = tg.requests.filter((r) => r.method === 'getupdates').length;
    const answered = replies().length;
    tg.message(CHAT, '/help');
    expect(tg.requests.filter((r) => r.method === 'getupdates')).toHaveLength(polls);

    await s.reconfigure({ receivers: (hook) => telegram(hook) });
    expect((await daemon.reload()).ok).toBe(true);
    await waitFor(() => replies().length === answered + 1, 'the /help sent while the bot was away');
    expect(replies()[answered]?.split('\n')[0]).toBe('spotwatch commands:');

    const offsetFile = join(s.config.state_dir, 'telegram-123456789.offset');
    await waitFor(() => tg.pending.length === 0 && tg.polling, 'the /help confirmed');
    await s.stop();
    const offset = Number(readFileSync(offsetFile, 'utf8'));
    expect(existsSync(offsetFile)).toBe(true);
    const before = tg.requests.length;
    await s.start();
    expect(await ask('/status')).toMatch(/^1 exchange · /);
    expect(replies()).toHaveLength(answered + 2);
    expect(tg.requests.slice(before).find((r) => r.method === 'getupdates')?.params.offset).toBe(offset);
  });

  it('answers /notices COIN with the window the exchange\'s Statuspage tells, as GET /api/v1/notices shows it', async () => {
    await s.stop();
    await s.reconfigure({ exchange: `    notices: { poll: 200ms, statuspage: ${s.sim.url}/-/statuspage }\n` });
    const url = (await s.start()).url as string;
    s.sim.control.apply({ action: 'schedule_maintenance', id: 'w1', title: 'Tether (USDT) wallet maintenance @everyone', begins_at: '2030-01-02T03:00:00Z', duration: '90m', scope: 'funding', coins: ['USDT'], url: 'https://status.test/w1' });
    s.sim.control.apply({ action: 'start_maintenance', id: 'w1' });
    type W = { state: string; begins: string; ends: string };
    const window = await waitFor(async () => ((await (await fetch(`${url}/api/v1/notices?kind=maintenance`)).json()) as { maintenance: W[] }).maintenance.find((w) => w.state === 'ongoing'), 'the window ongoing');
    const utc = (iso: string): string => `${iso.slice(0, 16).replace('T', ' ')} UTC`;
    expect(await ask('/notices usdt')).toBe([
      'Maintenance naming usdt: 1 ongoing, 0 upcoming',
      `🔧 main · ongoing since ${utc(window.begins)}, until ${utc(window.ends)}`,
      '   “Tether (USDT) wallet maintenance @\u2060everyone” https://status.test/w1',
      'Announcements naming usdt in the last 7 days: 0, newest first',
    ].join('\n'));
    expect(await ask('/notices BTC')).toBe('No maintenance window naming BTC is ongoing or upcoming, and no announcement naming BTC in the last 7 days.');
  });
});

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
    expect(tg.answers[1]).toEqual({ queryId: expect.any(String) as string, text: expect.stringMatching(/^Silencing for 24h, until \d{4}-\d\d-\d\d \d\d:\d\d UTC…$/) as string });

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
