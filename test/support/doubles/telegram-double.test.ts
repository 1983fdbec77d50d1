/** The Telegram double's inline keyboards, callback queries, edits and entities, through plain HTTP. */
import { parseTelegramHtml, parseTelegramHtmlEntities } from './telegram-html';
import { waitFor } from '../wait';
import { TelegramDouble } from './telegram';

const TOKEN = '123456:ABC-double';
const CHAT = -100777;
const BOT = { id: 123456, is_bot: true, first_name: 'Spotwatch', username: 'SpotwatchBot' };
const ADA = { id: 42, is_bot: false, first_name: 'Ada', username: 'ada' };
const KEYBOARD = { inline_keyboard: [[{ text: 'Silence 1h', callback_data: 'silence:1h' }, { text: 'Docs', url: 'https://example.com/docs' }]] };

describe('the Telegram double: inline keyboards and callback queries', () => {
  let tg: TelegramDouble;
  beforeEach(async () => {
    tg = await new TelegramDouble(TOKEN).chat(CHAT).start();
  });
  afterEach(async () => {
    await tg.stop();
  });

  async function call(method: string, params: Record<string, unknown>): Promise<{ status: number; body: Record<string, unknown> }> {
    const res = await fetch(`${tg.url}/bot${TOKEN}/${method}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(params) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }
  async function form(method: string, params: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
    const res = await fetch(`${tg.url}/bot${TOKEN}/${method}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(params).toString() });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }
  const bad = (description: string) => ({ status: 400, body: { ok: false, error_code: 400, description } });
  async function send(params: Record<string, unknown> = {}): Promise<number> {
    const { body } = await call('sendMessage', { chat_id: CHAT, text: 'USDT withdrawals halted', reply_markup: KEYBOARD, ...params });
    return (body.result as { message_id: number }).message_id;
  }

  it('sends a message with an inline keyboard and keeps it, as a JSON body or a form', async () => {
    const answer = await call('sendMessage', { chat_id: CHAT, text: '<b>USDT</b> halted', parse_mode: 'HTML', reply_markup: KEYBOARD });
    const result = answer.body.result as Record<string, unknown>;
    expect(answer.status).toBe(200);
    expect(result).toEqual({
      message_id: 1,
      from: BOT,
      chat: { id: CHAT, type: 'supergroup' },
      date: expect.any(Number),
      text: 'USDT halted',
      entities: [{ type: 'bold', offset: 0, length: 4 }],
      reply_markup: KEYBOARD,
    });
    expect(tg.messageOf(CHAT, 1)).toEqual(result);
    expect(tg.sent[0]).toMatchObject({ messageId: 1, text: 'USDT halted', entities: [{ type: 'bold', offset: 0, length: 4 }], replyMarkup: KEYBOARD });

    const posted = await form('sendMessage', { chat_id: String(CHAT), text: 'plain', reply_markup: JSON.stringify(KEYBOARD) });
    expect(posted.body.result).toMatchObject({ message_id: 2, text: 'plain', reply_markup: KEYBOARD });
    expect(posted.body.result).not.toHaveProperty('entities');
    expect(tg.sent[1]).toMatchObject({ entities: [], replyMarkup: KEYBOARD });

    const bare = await call('sendMessage', { chat_id: CHAT, text: 'no buttons' });
    expect(bare.body.result).not.toHaveProperty('reply_markup');
    expect(tg.sent[2]?.replyMarkup).toBeUndefined();
    expect(tg.messageOf(CHAT, 99)).toBeUndefined();
  });

  it('refuses an invalid inline keyboard with Telegram\'s descriptions', async () => {
    const cases: [unknown, string][] = [
      [{ inline_keyboard: [[{ text: 'x', callback_data: 'a'.repeat(65) }]] }, 'Bad Request: BUTTON_DATA_INVALID'],
      // callback_data counts UTF-8 bytes: 33 two-byte characters are 66 (32 fit, below).
      [{ inline_keyboard: [[{ text: 'x', callback_data: 'é'.repeat(33) }]] }, 'Bad Request: BUTTON_DATA_INVALID'],
      [{ inline_keyboard: [[{ text: 'x' }]] }, "Bad Request: can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard"],
      [{ inline_keyboard: [[{ text: 'x', callback_data: '' }]] }, "Bad Request: can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard"],
      [{ inline_keyboard: [[{ callback_data: 'a' }]] }, 'Bad Request: can\'t parse inline keyboard button: Can\'t find field "text"'],
      [{ inline_keyboard: [[{ text: 'x', callback_data: 'a', url: 'https://example.com' }]] }, "Bad Request: can't parse inline keyboard button: exactly one of the optional fields must be used, found url, callback_data"],
      [{ inline_keyboard: [{ text: 'x', callback_data: 'a' }] }, 'Bad Request: field "inline_keyboard" of the InlineKeyboardMarkup must be an Array of Arrays'],
      [{ inline_keyboard: [['x']] }, "Bad Request: can't parse inline keyboard button: InlineKeyboardButton must be an Object"],
      [{ inline_keyboard: 'x' }, 'Bad Request: field "inline_keyboard" must be of type Array'],
      ['{not json', "Bad Request: can't parse reply keyboard markup JSON object"],
      [[1], 'Bad Request: object expected as reply markup'],
    ];
    for (const [reply_markup, description] of cases) expect(await call('sendMessage', { chat_id: CHAT, text: 'x', reply_markup })).toEqual(bad(description));
    expect(tg.sent).toHaveLength(0);
    const fits = await call('sendMessage', { chat_id: CHAT, text: 'x', reply_markup: { inline_keyboard: [[{ text: 'x', callback_data: 'é'.repeat(32) }]] } });
    expect(fits.status).toBe(200);
  });

  it('queues a callback query for a pressed button, delivered through getUpdates', async () => {
    const id = await send();
    const { updateId, queryId } = tg.press(CHAT, id, 'silence:1h');
    const { body } = await call('getUpdates', {});
    expect(body.result).toEqual([
      {
        update_id: updateId,
        callback_query: {
          id: queryId,
          from: ADA,
          message: { message_id: id, from: BOT, chat: { id: CHAT, type: 'supergroup' }, date: expect.any(Number), text: 'USDT withdrawals halted', reply_markup: KEYBOARD },
          chat_instance: expect.any(String),
          data: 'silence:1h',
        },
      },
    ]);
    expect(() => tg.press(CHAT, id, 'nope')).toThrow('no button with callback_data "nope"');
    expect(() => tg.press(CHAT, 99, 'silence:1h')).toThrow();
  });

  it('gives an InaccessibleMessage and another user when asked', async () => {
    const id = await send();
    const bob = { id: 7, is_bot: false, first_name: 'Bob' };
    tg.press(CHAT, id, 'silence:1h', { inaccessible: true, from: bob });
    const { body } = await call('getUpdates', {});
    const query = (body.result as { callback_query: Record<string, unknown> }[])[0]?.callback_query;
    expect(query?.from).toEqual(bob);
    expect(query?.message).toEqual({ message_id: id, chat: { id: CHAT, type: 'supergroup' }, date: 0 });
  });

  it('honours allowed_updates for callback queries', async () => {
    const id = await send();
    tg.message(CHAT, '/status');
    const { updateId } = tg.press(CHAT, id, 'silence:1h');
    const messages = await call('getUpdates', { allowed_updates: ['message'] });
    expect((messages.body.result as { update_id: number }[]).map((u) => Object.keys(u))).toEqual([['update_id', 'message']]);
    const queries = await call('getUpdates', { allowed_updates: ['callback_query'] });
    expect((queries.body.result as { update_id: number }[]).map((u) => u.update_id)).toEqual([updateId]);
    const all = await call('getUpdates', { allowed_updates: [] });
    expect(all.body.result).toHaveLength(2);
  });

  it('ends a waiting long poll with the callback query', async () => {
    const id = await send();
    const poll = call('getUpdates', { timeout: 5, allowed_updates: ['callback_query'] });
    await waitFor(() => tg.polling, 'the long poll');
    const { queryId } = tg.press(CHAT, id, 'silence:1h');
    const { body } = await poll;
    expect((body.result as { callback_query: { id: string } }[])[0]?.callback_query.id).toBe(queryId);
  });

  it('answers a callback query once, in time, with at most 200 characters', async () => {
    const id = await send();
    const first = tg.press(CHAT, id, 'silence:1h').queryId;
    expect(await call('answerCallbackQuery', { callback_query_id: first, text: 'x'.repeat(201) })).toEqual(bad('Bad Request: MESSAGE_TOO_LONG'));
    expect(await call('answerCallbackQuery', { callback_query_id: first, text: 'Silenced for 1h', show_alert: true, cache_time: 5 })).toEqual({ status: 200, body: { ok: true, result: true } });
    const tooOld = bad('Bad Request: query is too old and response timeout expired or query ID is invalid');
    expect(await call('answerCallbackQuery', { callback_query_id: first })).toEqual(tooOld);
    expect(await call('answerCallbackQuery', { callback_query_id: '999' })).toEqual(tooOld);
    const second = tg.press(CHAT, id, 'silence:1h').queryId;
    tg.expire(second);
    expect(await call('answerCallbackQuery', { callback_query_id: second })).toEqual(tooOld);
    const third = tg.press(CHAT, id, 'silence:1h').queryId;
    expect((await form('answerCallbackQuery', { callback_query_id: third, show_alert: 'false', url: 't.me/SpotwatchBot?start=x' })).status).toBe(200);
    const fourth = tg.press(CHAT, id, 'silence:1h').queryId;
    expect((await call('answerCallbackQuery', { callback_query_id: fourth, text: 'y'.repeat(200) })).status).toBe(200);
    expect(tg.answers).toEqual([
      { queryId: first, text: 'Silenced for 1h', showAlert: true, cacheTime: 5 },
      { queryId: third, showAlert: false, url: 't.me/SpotwatchBot?start=x' },
      { queryId: fourth, text: 'y'.repeat(200) },
    ]);
    expect(() => tg.expire('nope')).toThrow();
  });

  it('edits a message\'s text: without reply_markup the inline keyboard goes', async () => {
    const id = await send();
    const kept = await call('editMessageText', { chat_id: CHAT, message_id: id, text: 'USDT <i>resumed</i>', parse_mode: 'HTML', reply_markup: KEYBOARD, link_preview_options: { is_disabled: true } });
    expect(kept.body.result).toEqual({
      message_id: id,
      from: BOT,
      chat: { id: CHAT, type: 'supergroup' },
      date: expect.any(Number),
      edit_date: expect.any(Number),
      text: 'USDT resumed',
      entities: [{ type: 'italic', offset: 5, length: 7 }],
      reply_markup: KEYBOARD,
    });
    const dropped = await form('editMessageText', { chat_id: String(CHAT), message_id: String(id), text: 'USDT resumed' });
    expect(dropped.body.result).toMatchObject({ text: 'USDT resumed' });
    expect(dropped.body.result).not.toHaveProperty('reply_markup');
    expect(dropped.body.result).not.toHaveProperty('entities');
    expect(tg.messageOf(CHAT, id)?.reply_markup).toBeUndefined();
    expect(() => tg.press(CHAT, id, 'silence:1h')).toThrow();
    expect(tg.edits).toEqual([
      { chatId: String(CHAT), messageId: id, method: 'editMessageText', params: expect.objectContaining({ parse_mode: 'HTML' }) },
      { chatId: String(CHAT), messageId: id, method: 'editMessageText', params: { chat_id: String(CHAT), message_id: String(id), text: 'USDT resumed' } },
    ]);
  });

  it('refuses an edit that changes nothing, or of a message it cannot edit', async () => {
    const id = await send();
    const notModified = bad('Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message');
    expect(await call('editMessageText', { chat_id: CHAT, message_id: id, text: 'USDT withdrawals halted', reply_markup: JSON.stringify(KEYBOARD) })).toEqual(notModified);
    expect(await call('editMessageReplyMarkup', { chat_id: CHAT, message_id: id, reply_markup: KEYBOARD })).toEqual(notModified);
    expect(await call('editMessageText', { chat_id: CHAT, message_id: 99, text: 'x' })).toEqual(bad('Bad Request: message to edit not found'));
    expect(await call('editMessageReplyMarkup', { chat_id: CHAT, message_id: 99 })).toEqual(bad('Bad Request: message to edit not found'));
    tg.message(CHAT, 'hello');
    expect(await call('editMessageText', { chat_id: CHAT, message_id: id + 1, text: 'x' })).toEqual(bad("Bad Request: message can't be edited"));
    expect(await call('editMessageText', { chat_id: 5, message_id: id, text: 'x' })).toEqual(bad('Bad Request: chat not found'));
    expect(await call('editMessageText', { inline_message_id: 'AAAA', text: 'x' })).toEqual(bad('Bad Request: invalid inline message identifier specified'));
    expect(await call('editMessageText', { text: 'x' })).toEqual(bad('Bad Request: message identifier is not specified'));
    expect(await call('editMessageText', { chat_id: CHAT, message_id: id, text: '' })).toEqual(bad('Bad Request: message text is empty'));
    expect(await call('editMessageText', { chat_id: CHAT, message_id: id, text: 'x'.repeat(4097) })).toEqual(bad('Bad Request: MESSAGE_TOO_LONG'));
    expect(await call('editMessageText', { chat_id: CHAT, message_id: id, text: '<b>x', parse_mode: 'HTML' })).toEqual(bad('Bad Request: can\'t parse entities: Can\'t find end tag corresponding to start tag "b"'));
    expect(await call('editMessageText', { chat_id: CHAT, message_id: id, text: 'x', reply_markup: { inline_keyboard: [[{ text: 'x' }]] } })).toEqual(
      bad("Bad Request: can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard"),
    );
    expect((await call('editMessageText', { chat_id: CHAT, message_id: id, text: 'x'.repeat(4096), reply_markup: KEYBOARD })).status).toBe(200);
    expect(tg.edits).toHaveLength(1);
  });

  it('replaces or removes the inline keyboard with editMessageReplyMarkup', async () => {
    const id = await send();
    const other = { inline_keyboard: [[{ text: 'Unsilence', callback_data: 'unsilence' }]] };
    const replaced = await call('editMessageReplyMarkup', { chat_id: CHAT, message_id: id, reply_markup: other });
    expect(replaced.body.result).toMatchObject({ message_id: id, text: 'USDT withdrawals halted', reply_markup: other, edit_date: expect.any(Number) });
    expect(() => tg.press(CHAT, id, 'silence:1h')).toThrow();
    tg.press(CHAT, id, 'unsilence');
    const removed = await call('editMessageReplyMarkup', { chat_id: CHAT, message_id: id });
    expect(removed.body.result).not.toHaveProperty('reply_markup');
    expect(tg.messageOf(CHAT, id)).not.toHaveProperty('reply_markup');
    expect(await call('editMessageReplyMarkup', { chat_id: CHAT, message_id: id, reply_markup: { inline_keyboard: [] } })).toEqual(
      bad('Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message'),
    );
    expect(tg.edits.map((e) => e.method)).toEqual(['editMessageReplyMarkup', 'editMessageReplyMarkup']);
  });

  it('keeps explicit entities as given and refuses those out of the text', async () => {
    const entities = [{ type: 'bold', offset: 0, length: 4 }, { type: 'text_link', offset: 5, length: 4, url: 'https://example.com/' }];
    const sent = await call('sendMessage', { chat_id: CHAT, text: 'USDT docs', entities });
    expect(sent.body.result).toMatchObject({ text: 'USDT docs', entities });
    const posted = await form('sendMessage', { chat_id: String(CHAT), text: 'USDT docs', entities: JSON.stringify(entities) });
    expect(posted.body.result).toMatchObject({ entities });
    const id = (sent.body.result as { message_id: number }).message_id;
    expect(await call('editMessageText', { chat_id: CHAT, message_id: id, text: 'USDT docs', entities })).toEqual(
      bad('Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message'),
    );
    const edited = await call('editMessageText', { chat_id: CHAT, message_id: id, text: 'USDT docs', entities: [{ type: 'italic', offset: 0, length: 9 }] });
    expect(edited.body.result).toMatchObject({ entities: [{ type: 'italic', offset: 0, length: 9 }] });
    const cases: [unknown[], string][] = [
      [[{ type: 'bold', offset: 0, length: 10 }], 'Bad Request: entity beginning at UTF-16 offset 0 ends after the end of the text at UTF-16 offset 10'],
      [[{ type: 'bold', offset: 10, length: 1 }], 'Bad Request: entity begins after the end of the text at UTF-16 offset 10'],
      [[{ type: 'bold', offset: -1, length: 1 }], 'Bad Request: receive an entity with incorrect offset -1'],
      [[{ type: 'bold', offset: 0, length: -1 }], 'Bad Request: receive an entity with incorrect length -1'],
      [[{ type: 'sparkle', offset: 0, length: 1 }], "Bad Request: can't parse MessageEntity: Unsupported type specified"],
      [[{ type: 'bold', length: 1 }], 'Bad Request: can\'t parse MessageEntity: Can\'t find field "offset"'],
      [['bold'], "Bad Request: can't parse MessageEntity: expected an Object"],
    ];
    for (const [given, description] of cases) {
      expect(await call('sendMessage', { chat_id: CHAT, text: 'USDT docs', entities: given })).toEqual(bad(description));
      expect(await call('editMessageText', { chat_id: CHAT, message_id: id, text: 'USDT docs', entities: given })).toEqual(bad(description));
    }
    // UTF-16: the emoji is two code units.
    const emoji = await call('sendMessage', { chat_id: CHAT, text: '😀 up', entities: [{ type: 'bold', offset: 3, length: 2 }] });
    expect(emoji.status).toBe(200);
    // With a parse_mode, entities are not looked at.
    const html = await call('sendMessage', { chat_id: CHAT, text: '<u>x</u>', parse_mode: 'HTML', entities: [{ type: 'bold', offset: 0, length: 99 }] });
    expect(html.body.result).toMatchObject({ text: 'x', entities: [{ type: 'underline', offset: 0, length: 1 }] });
  });
});

describe('parseTelegramHtmlEntities', () => {
  it('gives each tag its MessageEntity, offsets and lengths in UTF-16 code units', () => {
    const html =
      '😀 <b>bo<i>ld</i></b> <a href="https://example.com/?a=1&amp;b=2">link</a> <u>u</u><ins>i</ins> <s>s</s><del>d</del> ' +
      '<tg-spoiler>sp</tg-spoiler><span class="tg-spoiler">an</span> <code>c</code> <pre><code class="language-ts">let x</code></pre>' +
      '<pre>raw</pre><blockquote>q</blockquote><blockquote expandable>e</blockquote><b></b>' +
      '<tg-emoji emoji-id="5368324170671202286">👍</tg-emoji><tg-time unix="1647531900" format="wDT">then</tg-time>';
    const { text, entities } = parseTelegramHtmlEntities(html);
    expect(text).toBe('😀 bold link ui sd span c let xrawqe👍then');
    expect(entities).toEqual([
      { type: 'bold', offset: 3, length: 4 },
      { type: 'italic', offset: 5, length: 2 },
      { type: 'text_link', offset: 8, length: 4, url: 'https://example.com/?a=1&b=2' },
      { type: 'underline', offset: 13, length: 1 },
      { type: 'underline', offset: 14, length: 1 },
      { type: 'strikethrough', offset: 16, length: 1 },
      { type: 'strikethrough', offset: 17, length: 1 },
      { type: 'spoiler', offset: 19, length: 2 },
      { type: 'spoiler', offset: 21, length: 2 },
      { type: 'code', offset: 24, length: 1 },
      { type: 'pre', offset: 26, length: 5, language: 'ts' },
      { type: 'pre', offset: 31, length: 3 },
      { type: 'blockquote', offset: 34, length: 1 },
      { type: 'expandable_blockquote', offset: 35, length: 1 },
      { type: 'custom_emoji', offset: 36, length: 2, custom_emoji_id: '5368324170671202286' },
      { type: 'date_time', offset: 38, length: 4, unix_time: 1647531900, date_time_format: 'wDT' },
    ]);
    expect(parseTelegramHtml(html)).toBe(text);
  });

  it('puts the enclosing entity first when two start together', () => {
    expect(parseTelegramHtmlEntities('<b><i>x</i>y</b>').entities).toEqual([
      { type: 'bold', offset: 0, length: 2 },
      { type: 'italic', offset: 0, length: 1 },
    ]);
    expect(parseTelegramHtmlEntities('<b><i>x</i></b>').entities).toEqual([
      { type: 'bold', offset: 0, length: 1 },
      { type: 'italic', offset: 0, length: 1 },
    ]);
    expect(parseTelegramHtmlEntities('&lt;plain&gt;')).toEqual({ text: '<plain>', entities: [] });
  });
});
