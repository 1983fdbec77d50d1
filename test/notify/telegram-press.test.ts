import { mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Silence } from '../../src/alerts/silence';
import type { Notifier } from '../../src/notify/notifier';
import { buttonKey } from '../../src/notify/telegram/buttons';
import { telegramNotifier, type TelegramOptions } from '../../src/notify/telegram/telegram';
import { capturedLogger } from '../support/log-capture';
import { TelegramDouble } from '../support/doubles/telegram';
import { receiverDeps } from '../support/receiver-deps';
import { waitFor } from '../support/wait';
import { closed, delivery, HOSTILE, reopened, storm, TRC_LABELS } from './chat-fixtures';
import { fixedContext, NOW } from './telegram-context';

/**
 * One-tap silences, receiver and bot against a Bot API double written from the public docs: the
 * firing message's buttons, a press answered (answerCallbackQuery), the API's silence over the
 * labels the message's alerts share, the message edited to say who and until when; refusals,
 * expired buttons, presses Telegram gave up on, and messages too old or too long to edit.
 */

const TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw';
const CHAT = -1001234567890;
const FAST = { firstMs: 10, maxMs: 20, conflictMs: 15 };
const HOUR = 3_600_000;
const ERC = closed('Wallet maintenance', { network: 'Ethereum(ERC20)', chain: 'ethereum' });
const SHARED = { alertname: 'WithdrawDisabled', exchange: 'main', severity: 'critical', coin: 'USDT', kind: 'withdraw_disabled' };
const keyboard = (key: string) => ({ inline_keyboard: [[{ text: 'Silence 1h', callback_data: `silence:1h:${key}` }, { text: 'Silence 24h', callback_data: `silence:24h:${key}` }]] });

describe('Telegram one-tap silences', () => {
  let tg: TelegramDouble;
  let dir: string;
  let deps: ReturnType<typeof receiverDeps>;
  let log: ReturnType<typeof capturedLogger>;
  const running: Notifier[] = [];
  beforeEach(async () => {
    tg = await new TelegramDouble(TOKEN).chat(CHAT).start();
    dir = mkdtempSync(join(tmpdir(), 'spotwatch-tg-press-'));
    log = capturedLogger('debug');
    deps = receiverDeps({ logger: log.logger });
  });
  afterEach(async () => {
    for (const n of running.splice(0)) await n.close?.();
    await tg.stop();
    await deps.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function bot(over: Partial<TelegramOptions> = {}, context = fixedContext({ stateDir: dir })) {
    const n = telegramNotifier({ name: 'desk', bot_token: TOKEN, chat_id: String(CHAT), api_url: tg.url, commands: true, timeout: 2000, longPollSeconds: 5, backoff: FAST, ...over }, { ...deps, bot: context.ctx });
    running.push(n);
    return { n, context };
  }
  const calls = (method: string) => tg.requests.filter((r) => r.method === method.toLowerCase()).map((r) => JSON.parse(r.raw) as Record<string, unknown>);

  it('a firing message carries the two buttons over the labels its alerts share; a resolved one carries none', async () => {
    const { n } = bot();
    await n.send(delivery([closed(HOSTILE), ERC]));
    await n.send(delivery([closed()]));
    await n.send(delivery([reopened(closed())]));
    expect(tg.sent.map((m) => m.params.reply_markup)).toEqual([keyboard(buttonKey(SHARED)), keyboard(buttonKey(TRC_LABELS)), undefined]);
    expect(tg.sent[0]?.params).toMatchObject({ chat_id: CHAT, parse_mode: 'HTML', link_preview_options: { is_disabled: true } });
  });

  it('a press silences those alerts as the API would, is answered, and the message says who and until when, its buttons gone', async () => {
    const { n, context } = bot();
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
    const { n, context } = bot();
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
    const { n, context } = bot({ allowed_users: [7, 8] });
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
    const first = bot();
    await first.n.send(delivery([closed()]));
    await first.n.close?.();
    const message = tg.sent[0];
    if (message === undefined) throw new Error('nothing sent');
    const { updateId, queryId } = tg.press(CHAT, message.messageId, `silence:24h:${buttonKey(TRC_LABELS)}`);
    tg.expire(queryId);
    const { context } = bot();
    await waitFor(() => tg.pending.every((id) => id > updateId), 'the press taken');
    expect(calls('answerCallbackQuery')).toEqual([{ callback_query_id: queryId, text: 'Silencing for 24h, until 2026-01-03 12:00 UTC…' }]);
    expect(context.requests).toEqual([]);
    expect(context.ignored).toEqual(['desk stale']);
    expect(tg.edits).toEqual([]);
  });

  it('a button still works after a restart; one whose key is gone says it expired', async () => {
    const first = bot();
    await first.n.send(delivery([closed()]));
    await first.n.send(delivery([closed(), ERC]));
    await first.n.close?.();
    const [one, two] = tg.sent;
    if (one === undefined || two === undefined) throw new Error('not sent');
    const restarted = bot();
    tg.press(CHAT, one.messageId, `silence:1h:${buttonKey(TRC_LABELS)}`);
    await waitFor(() => tg.edits.length === 1, 'the edit after a restart');
    expect(restarted.context.requests).toHaveLength(1);
    await restarted.n.close?.();

    unlinkSync(join(dir, 'telegram-123456789.buttons.json'));
    const forgot = bot();
    const { queryId } = tg.press(CHAT, two.messageId, `silence:1h:${buttonKey(SHARED)}`);
    await waitFor(() => tg.answers.length === 2, 'the answer to an unknown key');
    expect(calls('answerCallbackQuery')[1]).toEqual({ callback_query_id: queryId, text: 'This button has expired: /silence still silences these alerts.', show_alert: true });
    expect(forgot.context.requests).toEqual([]);
    expect(tg.messageOf(CHAT, two.messageId)?.reply_markup).toEqual(keyboard(buttonKey(SHARED)));
  });

  it('a second press over alerts already silenced at least as long changes nothing', async () => {
    const silence: Silence = { id: 'bbbb2222-0000', matchers: Object.entries(TRC_LABELS).map(([label, value]) => ({ label, pattern: `/${value.replace(/[()]/g, '\\$&')}/` })), startsAt: NOW - HOUR, endsAt: NOW + 2 * HOUR, comment: '', createdBy: 'telegram:@eve' };
    const { n, context } = bot({}, fixedContext({ stateDir: dir, silences: [silence] }));
    await n.send(delivery([closed()]));
    const { queryId } = tg.press(CHAT, tg.sent[0]?.messageId ?? 0, `silence:1h:${buttonKey(TRC_LABELS)}`);
    await waitFor(() => tg.answers.length === 1, 'the answer');
    expect(calls('answerCallbackQuery')).toEqual([{ callback_query_id: queryId, text: 'Already silenced until 2026-01-02 14:00 UTC by @\u2060eve.' }]);
    expect(context.requests).toEqual([]);
  });

  it('two quick presses (a clock that moves) make one silence; the second is told it is already silenced', async () => {
    let now = NOW;
    const context = fixedContext({ stateDir: dir, now: () => (now += 1_000) });
    const { n } = bot({}, context);
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
    const { n } = bot();
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
    const { n } = bot({}, fixedContext({ stateDir: dir, refuse: 'the state store cannot be written now; try again later' }));
    await n.send(delivery([closed()]));
    const id = tg.sent[0]?.messageId ?? 0;
    tg.press(CHAT, id, `silence:1h:${buttonKey(TRC_LABELS)}`);
    await waitFor(() => tg.sent.length === 2, 'the reply');
    expect(tg.sent[1]?.text).toBe('Not silenced: the state store cannot be written now; try again later');
    expect(tg.edits).toEqual([]);
    expect(tg.messageOf(CHAT, id)?.reply_markup).toEqual(keyboard(buttonKey(TRC_LABELS)));
  });

  it('a press in another chat (the message forwarded there) changes nothing, and is counted', async () => {
    const { n, context } = bot();
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
    const first = bot();
    const second = bot({ name: 'desk-2' });
    await first.n.send(delivery([closed()]));
    await second.n.send(delivery([closed()]));
    expect(tg.sent.map((m) => m.replyMarkup === undefined)).toEqual([false, true]);
  });

  it('answers a button that is not ours without doing anything', async () => {
    const { context } = bot();
    const theirs = await fetch(`${tg.url}/bot${TOKEN}/sendMessage`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ chat_id: CHAT, text: 'a poll', reply_markup: { inline_keyboard: [[{ text: 'Yes', callback_data: 'vote:yes' }]] } }) });
    const { result } = (await theirs.json()) as { result: { message_id: number } };
    const { queryId } = tg.press(CHAT, result.message_id, 'vote:yes');
    await waitFor(() => tg.answers.length === 1, 'the answer');
    expect(calls('answerCallbackQuery')).toEqual([{ callback_query_id: queryId }]);
    expect(context.requests).toEqual([]);
    expect(tg.edits).toEqual([]);
  });
});
