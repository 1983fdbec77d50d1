import { mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Silence } from '../../src/alerts/silence';
import type { Notifier } from '../../src/notify/notifier';
import { receiverRegistry } from '../../src/notify/registry';
import { buttonKey } from '../../src/notify/telegram/buttons';
import { telegramNotifier, type TelegramOptions } from '../../src/notify/telegram/telegram';
import { TelegramDouble } from '../support/doubles/telegram';
import { receiverDeps } from '../support/receiver-deps';
import { waitFor } from '../support/wait';
import { closed, delivery, HOSTILE, reopened, storm, TRC_LABELS } from './chat-fixtures';
import { fixedContext, NOW } from './telegram-context';
import { capturedLogger } from '../support/log-capture';

// Work at full size (an 8,000-alert storm, thousands of coins) takes seconds on a loaded machine: no test of this file is bound by its speed.
jest.setTimeout(60_000);

const TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw';
const CHAT = -1001234567890;
const FAST = { firstMs: 10, maxMs: 20, conflictMs: 15 };
const HOUR = 3_600_000;
const ERC = closed('Wallet maintenance', { network: 'Ethereum(ERC20)', chain: 'ethereum' });
const SHARED = { alertname: 'WithdrawDisabled', exchange: 'main', severity: 'critical', coin: 'USDT', kind: 'withdraw_disabled' };
const keyboard = (key: string) => ({ inline_keyboard: [[{ text: 'Silence 1h', callback_data: `silence:1h:${key}` }, { text: 'Silence 24h', callback_data: `silence:24h:${key}` }]] });

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

  it('reads a message\'s date against the system\'s wall clock: after a clock step, a command just sent is answered (the daemon\'s anchored now is an hour off)', async () => {
    const { context } = bot({}, fixedContext({ now: () => Date.now() + 3_600_000, wall: () => Date.now(), stateDir: dir }));
    tg.message(CHAT, '/closed', { date: Math.floor(Date.now() / 1000) });
    tg.message(CHAT, '/status', { date: Math.floor(Date.now() / 1000) - 3600 });
    await waitFor(() => tg.sent.length === 1 && context.ignored.length === 1, 'the fresh command answered, the old one ignored');
    expect(replies()).toEqual(['No network is closed.']);
    expect(context.ignored).toEqual(['desk stale']);
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

  /**
   * One-tap silences, receiver and bot against a Bot API double written from the public docs: the
   * firing message's buttons, a press answered (answerCallbackQuery), the API's silence over the
   * labels the message's alerts share, the message edited to say who and until when; refusals,
   * expired buttons, presses Telegram gave up on, and messages too old or too long to edit.
   */
  describe('one-tap silences', () => {
    /** A receiver whose context lives at NOW (the silences' times are exact). */
    const pressBot = (over: Partial<TelegramOptions> = {}, context = fixedContext({ stateDir: dir })) => bot(over, context);
    const calls = (method: string) => tg.requests.filter((r) => r.method === method.toLowerCase()).map((r) => JSON.parse(r.raw) as Record<string, unknown>);

    it('a firing message carries the two buttons over the labels its alerts share; a resolved one carries none', async () => {
      const { n } = pressBot();
      await n.send(delivery([closed(HOSTILE), ERC]));
      await n.send(delivery([closed()]));
      await n.send(delivery([reopened(closed())]));
      expect(tg.sent.map((m) => m.params.reply_markup)).toEqual([keyboard(buttonKey(SHARED)), keyboard(buttonKey(TRC_LABELS)), undefined]);
      expect(tg.sent[0]?.params).toMatchObject({ chat_id: CHAT, parse_mode: 'HTML', link_preview_options: { is_disabled: true } });
    });

    it('a press silences those alerts as the API would, is answered, and the message says who and until when, its buttons gone', async () => {
      const { n, context } = pressBot();
      await n.send(delivery([closed(HOSTILE), ERC]));
      const message = tg.sent[0];
      if (message === undefined) throw new Error('nothing sent');
      const { queryId } = tg.press(CHAT, message.messageId, `silence:1h:${buttonKey(SHARED)}`);
      await waitFor(() => tg.edits.length === 1, 'the edited message');
      expect(context.requests).toEqual([{
        matchers: Object.entries(SHARED).map(([name, value]) => ({ name, value, isRegex: false, isEqual: true })),
        endsAt: NOW + HOUR,
        comment: 'Silence 1h (a Telegram button)',
        createdBy: 'telegram:@ada',
      }]);
      expect(calls('answerCallbackQuery')).toEqual([{ callback_query_id: queryId, text: 'Silencing for 1h, until 2026-01-02 13:00 UTC…' }]);
      const line = '🔕 Silenced by @ada until 2026-01-02 13:00 UTC (1h). /unsilence 3f2a9c1b ends it.';
      expect(calls('editMessageText')).toEqual([{
        chat_id: CHAT,
        message_id: message.messageId,
        text: `${message.text}\n\n${line}`,
        entities: message.entities,
        link_preview_options: { is_disabled: true },
        reply_markup: { inline_keyboard: [] },
      }]);
      const now = tg.messageOf(CHAT, message.messageId);
      expect(now?.text).toBe(`${message.text}\n\n${line}`);
      expect(now?.entities).toEqual(message.entities);
      expect((now?.entities ?? []).length).toBeGreaterThan(0);
      expect(now?.reply_markup?.inline_keyboard ?? []).toEqual([]);
      expect(log.lines.filter((l) => l.msg === 'silenced from a Telegram button')).toEqual([expect.objectContaining({ receiver: 'desk', from: 42, silence: '3f2a9c1b-0000-4000-8000-000000000001', endsAt: '2026-01-02T13:00:00.000Z' })]);
    });

    it('each message of a split group silences the alerts it lists', async () => {
      const { n, context } = pressBot();
      const alerts = storm(60, 'x'.repeat(200));
      await n.send(delivery(alerts));
      expect(tg.sent.length).toBeGreaterThan(1);
      const second = tg.sent[1];
      if (second === undefined) throw new Error('one message');
      // A storm's alerts share every label but network and chain: each message's key is the same.
      const data = second.replyMarkup?.inline_keyboard[0]?.[1]?.callback_data as string;
      expect(data).toBe(`silence:24h:${buttonKey(SHARED)}`);
      tg.press(CHAT, second.messageId, data, { from: { id: 43, is_bot: false, first_name: 'Grace <b>@everyone</b>' } });
      await waitFor(() => tg.edits.length === 1, 'the edit');
      expect(context.requests.map((r) => [r.endsAt, r.createdBy])).toEqual([[NOW + 24 * HOUR, 'telegram:Grace <b>@\u2060everyone</b> (43)']]);
      expect(tg.messageOf(CHAT, second.messageId)?.text.split('\n').at(-1)).toBe('🔕 Silenced by Grace <b>@\u2060everyone</b> until 2026-01-03 12:00 UTC (1d). /unsilence 3f2a9c1b ends it.');
      expect(tg.messageOf(CHAT, tg.sent[0]?.messageId ?? 0)?.reply_markup).toEqual(keyboard(buttonKey(SHARED)));
    });

    it('with allowed_users, anyone else is refused politely, counted, and nothing changes', async () => {
      const { n, context } = pressBot({ allowed_users: [7, 8] });
      await n.send(delivery([closed()]));
      const message = tg.sent[0];
      if (message === undefined) throw new Error('nothing sent');
      const { queryId } = tg.press(CHAT, message.messageId, `silence:1h:${buttonKey(TRC_LABELS)}`);
      await waitFor(() => tg.answers.length === 1, 'the answer');
      expect(calls('answerCallbackQuery')).toEqual([{ callback_query_id: queryId, text: "Sorry, only the people this bot's allowed_users lists may silence alerts. Your Telegram id is 42: ask whoever runs spotwatch to add it.", show_alert: true }]);
      expect(context.requests).toEqual([]);
      expect(context.ignored).toEqual(['desk not_allowed']);
      expect(tg.edits).toEqual([]);
      expect(tg.messageOf(CHAT, message.messageId)?.reply_markup).toEqual(keyboard(buttonKey(TRC_LABELS)));

      tg.press(CHAT, message.messageId, `silence:1h:${buttonKey(TRC_LABELS)}`, { from: { id: 8, is_bot: false, first_name: 'Eve', username: 'eve' } });
      await waitFor(() => tg.edits.length === 1, 'the allowed press');
      expect(context.requests.map((r) => r.createdBy)).toEqual(['telegram:@eve']);
    });

    it('a press Telegram no longer takes an answer to (made while spotwatch was down) changes nothing, and is taken once', async () => {
      const first = pressBot();
      await first.n.send(delivery([closed()]));
      await first.n.close?.();
      const message = tg.sent[0];
      if (message === undefined) throw new Error('nothing sent');
      const { updateId, queryId } = tg.press(CHAT, message.messageId, `silence:24h:${buttonKey(TRC_LABELS)}`);
      tg.expire(queryId);
      const { context } = pressBot();
      await waitFor(() => tg.pending.every((id) => id > updateId), 'the press taken');
      expect(calls('answerCallbackQuery')).toEqual([{ callback_query_id: queryId, text: 'Silencing for 24h, until 2026-01-03 12:00 UTC…' }]);
      expect(context.requests).toEqual([]);
      expect(context.ignored).toEqual(['desk stale']);
      expect(tg.edits).toEqual([]);
    });

    it('a button still works after a restart; one whose key is gone says it expired', async () => {
      const first = pressBot();
      await first.n.send(delivery([closed()]));
      await first.n.send(delivery([closed(), ERC]));
      await first.n.close?.();
      const [one, two] = tg.sent;
      if (one === undefined || two === undefined) throw new Error('not sent');
      const restarted = pressBot();
      tg.press(CHAT, one.messageId, `silence:1h:${buttonKey(TRC_LABELS)}`);
      await waitFor(() => tg.edits.length === 1, 'the edit after a restart');
      expect(restarted.context.requests).toHaveLength(1);
      await restarted.n.close?.();

      unlinkSync(join(dir, 'telegram-123456789.buttons.json'));
      const forgot = pressBot();
      const { queryId } = tg.press(CHAT, two.messageId, `silence:1h:${buttonKey(SHARED)}`);
      await waitFor(() => tg.answers.length === 2, 'the answer to an unknown key');
      expect(calls('answerCallbackQuery')[1]).toEqual({ callback_query_id: queryId, text: 'This button has expired: /silence still silences these alerts.', show_alert: true });
      expect(forgot.context.requests).toEqual([]);
      expect(tg.messageOf(CHAT, two.messageId)?.reply_markup).toEqual(keyboard(buttonKey(SHARED)));
    });

    it('a second press over alerts already silenced at least as long changes nothing', async () => {
      const silence: Silence = { id: 'bbbb2222-0000', matchers: Object.entries(TRC_LABELS).map(([label, value]) => ({ label, pattern: `/${value.replace(/[()]/g, '\\$&')}/` })), startsAt: NOW - HOUR, endsAt: NOW + 2 * HOUR, comment: '', createdBy: 'telegram:@eve' };
      const { n, context } = pressBot({}, fixedContext({ stateDir: dir, silences: [silence] }));
      await n.send(delivery([closed()]));
      const { queryId } = tg.press(CHAT, tg.sent[0]?.messageId ?? 0, `silence:1h:${buttonKey(TRC_LABELS)}`);
      await waitFor(() => tg.answers.length === 1, 'the answer');
      expect(calls('answerCallbackQuery')).toEqual([{ callback_query_id: queryId, text: 'Already silenced until 2026-01-02 14:00 UTC by @\u2060eve.' }]);
      expect(context.requests).toEqual([]);
    });

    it('two quick presses (a clock that moves) make one silence; the second is told it is already silenced', async () => {
      let now = NOW;
      const context = fixedContext({ stateDir: dir, now: () => (now += 1_000) });
      const { n } = pressBot({}, context);
      await n.send(delivery([closed()]));
      const id = tg.sent[0]?.messageId ?? 0;
      const data = `silence:1h:${buttonKey(TRC_LABELS)}`;
      tg.press(CHAT, id, data);
      tg.press(CHAT, id, data, { from: { id: 43, is_bot: false, first_name: 'Grace', username: 'grace' } });
      await waitFor(() => tg.answers.length === 2, 'both answered');
      expect(context.requests.map((r) => r.createdBy)).toEqual(['telegram:@ada']);
      expect(tg.answers[1]?.text).toMatch(/^Already silenced until 2026-01-02 13:00 UTC by @\u2060ada\.$/);
      expect(tg.edits).toHaveLength(1);
    });

    it('a message too old to be seen keeps its text: its buttons go and the line is a reply', async () => {
      const { n } = pressBot();
      await n.send(delivery([closed()]));
      const id = tg.sent[0]?.messageId ?? 0;
      tg.press(CHAT, id, `silence:1h:${buttonKey(TRC_LABELS)}`, { inaccessible: true });
      await waitFor(() => tg.sent.length === 2, 'the reply');
      expect(calls('editMessageText')).toEqual([]);
      expect(calls('editMessageReplyMarkup')).toEqual([{ chat_id: CHAT, message_id: id, reply_markup: { inline_keyboard: [] } }]);
      expect(calls('sendMessage')[1]).toEqual({
        chat_id: CHAT,
        text: '🔕 Silenced by @ada until 2026-01-02 13:00 UTC (1h). /unsilence 3f2a9c1b ends it.',
        reply_parameters: { message_id: id, allow_sending_without_reply: true },
        link_preview_options: { is_disabled: true },
      });
    });

    it('when the store cannot be written, says so in a reply and keeps the buttons', async () => {
      const { n } = pressBot({}, fixedContext({ stateDir: dir, refuse: 'the state store cannot be written now; try again later' }));
      await n.send(delivery([closed()]));
      const id = tg.sent[0]?.messageId ?? 0;
      tg.press(CHAT, id, `silence:1h:${buttonKey(TRC_LABELS)}`);
      await waitFor(() => tg.sent.length === 2, 'the reply');
      expect(tg.sent[1]?.text).toBe('Not silenced: the state store cannot be written now; try again later');
      expect(tg.edits).toEqual([]);
      expect(tg.messageOf(CHAT, id)?.reply_markup).toEqual(keyboard(buttonKey(TRC_LABELS)));
    });

    it('a press in another chat (the message forwarded there) changes nothing, and is counted', async () => {
      const { n, context } = pressBot();
      tg.chat(-100999);
      await n.send(delivery([closed()]));
      const data = `silence:1h:${buttonKey(TRC_LABELS)}`;
      const copy = await fetch(`${tg.url}/bot${TOKEN}/sendMessage`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ chat_id: -100999, text: 'copied', reply_markup: { inline_keyboard: [[{ text: 'Silence 1h', callback_data: data }]] } }) });
      const { result } = (await copy.json()) as { result: { message_id: number } };
      const { queryId } = tg.press(-100999, result.message_id, data);
      await waitFor(() => tg.answers.length === 1, 'the answer');
      expect(calls('answerCallbackQuery')).toEqual([{ callback_query_id: queryId, text: 'These buttons only work in the chat spotwatch sent them to.', show_alert: true }]);
      expect(context.requests).toEqual([]);
      expect(context.ignored).toEqual(['desk other_chat']);
    });

    it('a second receiver of the same bot, which only sends, carries no buttons: the first answers presses', async () => {
      const first = pressBot();
      const second = pressBot({ name: 'desk-2' });
      await first.n.send(delivery([closed()]));
      await second.n.send(delivery([closed()]));
      expect(tg.sent.map((m) => m.replyMarkup === undefined)).toEqual([false, true]);
    });

    it('answers a button that is not ours without doing anything', async () => {
      const { context } = pressBot();
      const theirs = await fetch(`${tg.url}/bot${TOKEN}/sendMessage`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ chat_id: CHAT, text: 'a poll', reply_markup: { inline_keyboard: [[{ text: 'Yes', callback_data: 'vote:yes' }]] } }) });
      const { result } = (await theirs.json()) as { result: { message_id: number } };
      const { queryId } = tg.press(CHAT, result.message_id, 'vote:yes');
      await waitFor(() => tg.answers.length === 1, 'the answer');
      expect(calls('answerCallbackQuery')).toEqual([{ callback_query_id: queryId }]);
      expect(context.requests).toEqual([]);
      expect(tg.edits).toEqual([]);
    });
  });
});
