import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Notifier } from '../../src/notify/notifier';
import { receiverRegistry } from '../../src/notify/registry';
import { telegramNotifier, type TelegramOptions } from '../../src/notify/telegram/telegram';
import { TelegramDouble } from '../support/doubles/telegram';
import { receiverDeps } from '../support/receiver-deps';
import { waitFor } from '../support/wait';
import { fixedContext, NOW } from './telegram-context';
import { capturedLogger } from '../support/log-capture';

const TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw';
const CHAT = -1001234567890;
const FAST = { firstMs: 10, maxMs: 20, conflictMs: 15 };

describe('the Telegram bot, long-polling a Bot API double', () => {
  let tg: TelegramDouble;
  let dir: string;
  let deps: ReturnType<typeof receiverDeps>;
  let log: ReturnType<typeof capturedLogger>;
  const running: Notifier[] = [];
  beforeEach(async () => {
    tg = await new TelegramDouble(TOKEN).chat(CHAT).start();
    dir = mkdtempSync(join(tmpdir(), 'spotwatch-tg-'));
    log = capturedLogger('debug', { redact: receiverRegistry.logRedactPaths() });
    deps = receiverDeps({ logger: log.logger });
  });
  afterEach(async () => {
    for (const n of running.splice(0)) await n.close?.();
    await tg.stop();
    await deps.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A receiver with commands on; its context records what the bot asked. */
  function bot(over: Partial<TelegramOptions> = {}, context = fixedContext({ now: () => Date.now(), stateDir: dir })) {
    const n = telegramNotifier({ name: 'desk', bot_token: TOKEN, chat_id: String(CHAT), api_url: tg.url, commands: true, timeout: 2000, longPollSeconds: 5, backoff: FAST, ...over }, { ...deps, bot: context.ctx });
    running.push(n);
    return { n, context };
  }
  const replies = () => tg.sent.map((s) => s.text);
  const logged = (msg: string) => log.lines.filter((l) => l.msg === msg);

  it('answers a command from its chat as a reply, with the exact request', async () => {
    bot();
    const update = tg.message(CHAT, '/status', { threadId: 3 });
    tg.chat(CHAT, { threads: [3] });
    await waitFor(() => tg.sent.length === 1, 'the reply');
    const sent = tg.requests.find((r) => r.method === 'sendmessage');
    expect(JSON.parse(sent?.raw ?? '{}')).toEqual({
      chat_id: CHAT,
      text: expect.stringMatching(/^2 exchanges · 3 alerts firing\n/),
      message_thread_id: 3,
      reply_parameters: { message_id: 1, allow_sending_without_reply: true },
      link_preview_options: { is_disabled: true },
    });
    // The next long poll, which confirms the update, may leave after the reply is sent.
    await waitFor(() => tg.requests.filter((r) => r.method === 'getupdates').length >= 2, 'the long poll after the update');
    const polls = tg.requests.filter((r) => r.method === 'getupdates').map((r) => r.raw);
    expect(polls.slice(0, 2)).toEqual([
      JSON.stringify({ timeout: 5, allowed_updates: ['message', 'callback_query'] }),
      JSON.stringify({ offset: update + 1, timeout: 5, allowed_updates: ['message', 'callback_query'] }),
    ]);
    expect(tg.requests[0]?.method).toBe('getme');
  });

  it('answers /notices COIN with the windows and announcements naming it, plain text as every reply, with the exact request', async () => {
    const context = fixedContext({
      stateDir: dir,
      notices: {
        windows: [{ exchange: 'bybit', title: 'Tether (USDT) wallet <b>maintenance</b>', state: 'scheduled', begins: NOW + 2 * 3_600_000, ends: NOW + 3 * 3_600_000, coins: ['USDT'], url: 'https://status.test/w1?a=1&b=2' }],
        announcements: [
          { exchange: 'bybit', kind: 'delisting', title: 'Will Delist Tether (USDT) & <ETH> @everyone', published: NOW - 60_000, coins: ['USDT', 'ETH'], url: null },
          { exchange: 'okx', kind: 'listing', title: 'New listing: Dogecoin (DOGE)', published: NOW - 120_000, coins: ['DOGE'], url: null },
        ],
      },
    });
    bot({}, context);
    tg.message(CHAT, '/notices usdt', { date: Math.floor(NOW / 1000) });
    await waitFor(() => tg.sent.length === 1, 'the reply');
    const sent = tg.requests.find((r) => r.method === 'sendmessage');
    expect(JSON.parse(sent?.raw ?? '{}')).toEqual({
      chat_id: CHAT,
      text: [
        'Maintenance naming usdt: 0 ongoing, 1 upcoming',
        '🔧 bybit · in 2h: 2026-01-02 14:00 UTC, until 2026-01-02 15:00 UTC',
        '   “Tether (USDT) wallet <b>maintenance</b>” https://status.test/w1?a=1&b=2',
        'Announcements naming usdt in the last 7 days: 1, newest first',
        '📢 bybit · delisting · 2026-01-02 11:59 UTC (1m ago)',
        '   “Will Delist Tether (USDT) & <ETH> @\u2060everyone”',
      ].join('\n'),
      reply_parameters: { message_id: 1, allow_sending_without_reply: true },
      link_preview_options: { is_disabled: true },
    });
  });

  it('answers only its own chat: others are counted, not answered; so are commands for another bot, plain text, and old commands', async () => {
    const { context } = bot();
    tg.message(-100999, '/status');
    tg.message(777, '/silence coin=USDT 30d');
    tg.message(CHAT, '/status@OtherBot');
    tg.message(CHAT, 'good morning');
    tg.message(CHAT, '/status', { date: Math.floor(Date.now() / 1000) - 3600 });
    tg.message(CHAT, '/help', { from: { id: 9, is_bot: true, first_name: 'Other' } });
    const last = tg.message(CHAT, '/closed');
    await waitFor(() => tg.sent.length === 1 && tg.pending.every((id) => id > last), 'the last command answered and confirmed');
    expect(replies()).toEqual(['No network is closed.']);
    expect(context.ignored).toEqual(['desk other_chat', 'desk other_chat', 'desk stale']);
    expect(context.requests).toEqual([]);
  });

  it('keeps its offset across a restart: no update is answered twice', async () => {
    const first = bot();
    const a = tg.message(CHAT, '/help');
    await waitFor(() => tg.sent.length === 1, 'the first reply');
    await first.n.close?.();
    expect(readFileSync(join(dir, 'telegram-123456789.offset'), 'utf8')).toBe(`${a + 1}\n`);

    // /closed was answered just before a crash, its offset saved, but the getUpdates that would
    // have confirmed it never went out: Telegram still holds it.
    const b = tg.message(CHAT, '/closed');
    writeFileSync(join(dir, 'telegram-123456789.offset'), `${b + 1}\n`);
    const before = tg.requests.length;
    bot();
    const c = tg.message(CHAT, '/status');
    await waitFor(() => tg.pending.every((id) => id > c), 'the third update confirmed');
    expect(replies().map((r) => r.split('\n')[0])).toEqual(['spotwatch commands:', '2 exchanges · 3 alerts firing']);
    expect(tg.requests.slice(before).find((r) => r.method === 'getupdates')?.raw).toBe(JSON.stringify({ offset: b + 1, timeout: 5, allowed_updates: ['message', 'callback_query'] }));
  });

  it('waits after a conflict (another program polls), says so once, and goes on when it stops', async () => {
    const conflict = { status: 409, description: 'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running' };
    tg.fail('getUpdates', conflict, conflict, conflict, { status: 502, description: 'Bad Gateway' });
    bot();
    tg.message(CHAT, '/help');
    await waitFor(() => tg.sent.length === 1, 'the reply after the conflict');
    // The line that says it works again may follow the reply it made possible.
    await waitFor(() => logged('Telegram getUpdates works again').length > 0, 'the log line that polling works again');
    expect(logged('another program is polling this bot\'s updates (only one may): commands wait until it stops')).toHaveLength(1);
    expect(logged('Telegram getUpdates failed; will try again')).toHaveLength(1);
    expect(logged('Telegram getUpdates works again')).toHaveLength(1);
    expect(log.text()).not.toContain(TOKEN.split(':')[1]);
  });

  it('polls a bot once per process, however many receivers share its token', async () => {
    bot();
    bot({ name: 'desk-2' });
    tg.message(CHAT, '/help');
    await waitFor(() => tg.sent.length === 1, 'the reply');
    expect(logged('another receiver already answers this bot\'s commands; this one only sends')).toHaveLength(1);
    expect(tg.requests.filter((r) => r.method === 'getme')).toHaveLength(1);
  });

  it('stops at once, abandoning the long poll in flight', async () => {
    const { n } = bot({ longPollSeconds: 30 });
    await waitFor(() => tg.requests.some((r) => r.method === 'getupdates'), 'the long poll');
    const began = Date.now();
    await n.close?.();
    expect(Date.now() - began).toBeLessThan(2000);
    const calls = tg.requests.length;
    tg.message(CHAT, '/help');
    // A new poller of the same bot may start at once: the first let go of it.
    bot();
    await waitFor(() => tg.sent.length === 1, 'the new poller\'s reply');
    expect(tg.requests.length).toBeGreaterThan(calls);
  });

  it('only sends when it has no BotContext (test-notify) or commands are off', async () => {
    const n = telegramNotifier({ name: 'desk', bot_token: TOKEN, chat_id: String(CHAT), api_url: tg.url, commands: true, timeout: 2000 }, deps);
    const off = bot({ commands: false });
    await n.send({ notification: { version: '4', groupKey: 'g', truncatedAlerts: 0, status: 'firing', receiver: 'desk', groupLabels: {}, commonLabels: {}, commonAnnotations: {}, externalURL: 'http://sw', alerts: [] }, idempotencyKey: 'k' });
    await off.n.close?.();
    await n.close?.();
    expect(tg.requests.map((r) => r.method)).toEqual(['sendmessage']);
  });
});
