import { parseConfig, redactConfig } from '../../src/config';
import { receiverRegistry } from '../../src/notify/registry';
import { capturedLogger } from '../support/log-capture';

const TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw';
const FILE = 'c.yaml';
const config = (block: string): string => `exchanges:\n  - name: main\nnotify:\n  receivers:\n    - name: desk\n      telegram: ${block}\n`;

describe('the telegram block of a receiver', () => {
  it('takes the documented keys and fills the defaults; a chat id may be written as a number', () => {
    const parsed = parseConfig(config(`{ bot_token: "${TOKEN}", chat_id: -1001234567890, message_thread_id: 7, commands: true }`), FILE, {}, '/etc');
    expect(parsed.ok && parsed.config.notify.receivers).toStrictEqual([
      {
        name: 'desk', send_resolved: true, kind: 'telegram',
        telegram: { bot_token: TOKEN, chat_id: '-1001234567890', message_thread_id: 7, api_url: 'https://api.telegram.org', commands: true, timeout: 10_000 },
      },
    ]);
  });

  it('takes allowed_users as numbers or digit strings, and says where a bad one is', () => {
    const good = parseConfig(config(`{ bot_token: "${TOKEN}", chat_id: -100123, commands: true, allowed_users: [42, "7012345678"] }`), FILE, {}, '/etc');
    expect(good.ok && good.config.notify.receivers[0]).toMatchObject({ telegram: { allowed_users: [42, 7_012_345_678] } });
    expect(parseConfig(config(`{ bot_token: "${TOKEN}", chat_id: -100123, allowed_users: ["@ada", -5] }`), FILE, {}, '/etc')).toEqual({
      ok: false,
      problems: [
        `${FILE}:6:112: notify.receivers[0].telegram.allowed_users[0]: a Telegram user id is a number, such as 123456789`,
        `${FILE}:6:120: notify.receivers[0].telegram.allowed_users[1]: must be greater than 0, got -5`,
      ],
    });
    expect(parseConfig(config(`{ bot_token: "${TOKEN}", chat_id: -100123, allowed_users: [] }`), FILE, {}, '/etc')).toEqual({
      ok: false,
      problems: [`${FILE}:6:111: notify.receivers[0].telegram.allowed_users: list at least one user id, or leave allowed_users out (then everyone in the chat may)`],
    });
  });

  it('says what is wrong, where, without quoting the token', () => {
    const text = config('{ bot_token: "123:short-secret", chat_id: "my group", template: "<p>{{status}}</p>", poll: 1 }');
    expect(parseConfig(text, FILE, {}, '/etc')).toEqual({
      ok: false,
      problems: [
        `${FILE}:6:30: notify.receivers[0].telegram.bot_token: not a bot token (use the one @BotFather gave, 123456789:AA...)`,
        `${FILE}:6:59: notify.receivers[0].telegram.chat_id: use the chat's number (such as "-1001234567890") or a public channel's @username`,
        `${FILE}:6:81: notify.receivers[0].telegram.template: Telegram would refuse this HTML: <p> is not a tag Telegram supports (use b, i, u, s, a, code, pre, blockquote, tg-spoiler)`,
        `${FILE}:6:102: notify.receivers[0].telegram: unknown key "poll" (expected one of: bot_token, chat_id, message_thread_id, api_url, commands, allowed_users, template, timeout)`,
      ],
    });
  });

  it('is shown with the token redacted, and never logged', () => {
    const parsed = parseConfig(config(`{ bot_token: "${TOKEN}", chat_id: "@desk_alerts", api_url: "https://u:pw@tg.example" }`), FILE, {}, '/etc');
    if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
    expect(redactConfig(parsed.config).notify.receivers[0]).toMatchObject({ telegram: { bot_token: '<redacted>', chat_id: '@desk_alerts', api_url: 'https://<redacted>@tg.example' } });
    const { logger, lines, text } = capturedLogger('info', { redact: receiverRegistry.logRedactPaths() });
    logger.info({ receiver: parsed.config.notify.receivers[0] }, 'receiver');
    expect(lines).toHaveLength(1);
    expect(text()).not.toContain(TOKEN);
    expect(text()).not.toContain('u:pw');
  });
});
