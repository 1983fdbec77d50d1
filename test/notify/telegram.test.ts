import { Agent } from 'undici';
import type { Alert } from '../../src/alerts/alert';
import { parseConfig, type Config } from '../../src/config';
import { systemClock } from '../../src/lib/clock';
import { Notifications } from '../../src/notify/orchestrator';
import { buildDelivery } from '../../src/notify/pipeline/build-delivery';
import { NotifyError } from '../../src/notify/notifier';
import { receiverRegistry } from '../../src/notify/registry';
import { telegramNotifier } from '../../src/notify/telegram/telegram';
import { TelegramDouble } from '../support/doubles/telegram';
import { receiverDeps } from '../support/receiver-deps';
import { openTempStore, type TempStore } from '../support/temp-store';
import { waitFor } from '../support/wait';
import { capturedLogger } from '../support/log-capture';

const TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw';
const CHAT = -1001234567890;
const T0 = Date.UTC(2026, 0, 2, 3, 4, 5);

function alert(over: Partial<Alert> = {}): Alert {
  return {
    fingerprint: '0123456789abcdef', ruleId: 'r', entity: 'e',
    labels: { alertname: 'WithdrawDisabled', exchange: 'main', severity: 'critical', coin: 'USDT', network: 'Tron(TRC20)' },
    annotations: { summary: 'USDT withdrawals closed on Tron(TRC20) (main)', withdraw_desc: 'Wallet <maintenance> & "upgrade"' },
    status: 'firing', activeAt: T0, startsAt: T0, endsAt: null, lastActiveAt: T0, lastNotifiedAt: null, value: 1, event: false,
    ...over,
  };
}

const delivery = (alerts: Alert[] = [alert()]) => buildDelivery('desk', { exchange: 'main', alertname: 'WithdrawDisabled' }, alerts, 'http://sw:9464', 1);

/** A logger whose lines a test reads. */
const debugLogger = () => capturedLogger('debug', { redact: receiverRegistry.logRedactPaths() });

describe('Telegram receiver, against a Bot API double', () => {
  let tg: TelegramDouble;
  let deps: ReturnType<typeof receiverDeps>;
  beforeEach(async () => {
    tg = await new TelegramDouble(TOKEN).chat(CHAT, { threads: [7] }).start();
    deps = receiverDeps();
  });
  afterEach(async () => {
    await tg.stop();
    await deps.close();
  });

  const notifier = (over: Partial<Parameters<typeof telegramNotifier>[0]> = {}) =>
    telegramNotifier({ name: 'desk', bot_token: TOKEN, chat_id: String(CHAT), api_url: tg.url, commands: false, timeout: 2000, ...over }, deps);

  it('sends one sendMessage per group, in HTML, to the chat and topic, with the exact body', async () => {
    await notifier({ message_thread_id: 7 }).send(delivery());
    expect(tg.requests.map((r) => r.method)).toEqual(['sendmessage']);
    const text = '🔴 <b>FIRING · WithdrawDisabled</b> · main · 1 alert\n\n🔴 <b>USDT withdrawals closed on Tron(TRC20) (main)</b>\nUSDT · Tron(TRC20) · main\nsince 2026-01-02 03:04 UTC\n'
      + '💬 <i>Wallet &lt;maintenance&gt; &amp; &quot;upgrade&quot;</i>\n\n<a href="http://sw:9464">Status page</a>';
    expect(tg.requests[0]?.raw).toBe(JSON.stringify({ chat_id: CHAT, message_thread_id: 7, text, parse_mode: 'HTML', link_preview_options: { is_disabled: true } }));
    expect(tg.sent.map((s) => s.text)).toEqual([
      '🔴 FIRING · WithdrawDisabled · main · 1 alert\n\n🔴 USDT withdrawals closed on Tron(TRC20) (main)\nUSDT · Tron(TRC20) · main\nsince 2026-01-02 03:04 UTC\n💬 Wallet <maintenance> & "upgrade"\n\nStatus page',
    ]);
  });

  it('sends to a public channel by its @username', async () => {
    tg.chat(-100777, { type: 'channel', username: 'desk_alerts' });
    await notifier({ chat_id: '@desk_alerts' }).send(delivery());
    expect(tg.requests[0]?.params.chat_id).toBe('@desk_alerts');
    expect(tg.sent[0]?.chatId).toBe('-100777');
  });

  it.each([
    ['flood control (429) waits retry_after', { status: 429, description: 'Too Many Requests: retry after 3', retryAfter: 3 }, new NotifyError('Telegram sendMessage answered 429: Too Many Requests: retry after 3', 'rate_limited', true, 3000)],
    ['a server error is retried', { status: 502, description: 'Bad Gateway' }, new NotifyError('Telegram sendMessage answered 502: Bad Gateway', 'server_error', true)],
    ['a chat not found is not', { status: 400, description: 'Bad Request: chat not found' }, new NotifyError('Telegram sendMessage answered 400: Bad Request: chat not found', 'client_error', false)],
    ['a blocked bot is not', { status: 403, description: 'Forbidden: bot was blocked by the user' }, new NotifyError('Telegram sendMessage answered 403: Forbidden: bot was blocked by the user', 'client_error', false)],
  ])('fails as the Bot API explains it: %s', async (_what, fault, expected) => {
    tg.fail('sendMessage', fault);
    const err = (await notifier().send(delivery()).catch((e: unknown) => e)) as NotifyError;
    expect(err).toBeInstanceOf(NotifyError);
    expect({ message: err.message, reason: err.reason, retryable: err.retryable, after: err.retryAfterMs }).toEqual({ message: expected.message, reason: expected.reason, retryable: expected.retryable, after: expected.retryAfterMs });
  });

  it('is refused by Telegram itself when the chat is unknown or the bot blocked', async () => {
    const unknown = (await notifier({ chat_id: '-1009' }).send(delivery()).catch((e: unknown) => e)) as NotifyError;
    expect([unknown.message, unknown.reason, unknown.retryable]).toEqual(['Telegram sendMessage answered 400: Bad Request: chat not found', 'client_error', false]);
    tg.chat(555, { blocked: true });
    const blocked = (await notifier({ chat_id: '555' }).send(delivery()).catch((e: unknown) => e)) as NotifyError;
    expect([blocked.message, blocked.reason]).toEqual(['Telegram sendMessage answered 403: Forbidden: bot was blocked by the user', 'client_error']);
  });

  it('never puts the token in an error, even when the far end quotes the URL', async () => {
    tg.fail('sendMessage', { status: 404, description: `Not Found: POST /bot${TOKEN}/sendMessage (token ${TOKEN})` });
    const quoted = (await notifier().send(delivery()).catch((e: unknown) => e)) as NotifyError;
    expect(quoted.message).toBe('Telegram sendMessage answered 404: Not Found: POST /bot[redacted]/sendMessage (token [redacted])');
    const closed = (await notifier({ api_url: 'http://127.0.0.1:9' }).send(delivery()).catch((e: unknown) => e)) as NotifyError;
    expect([closed.message, closed.reason]).toEqual(['Telegram sendMessage unreachable (ECONNREFUSED)', 'connect']);
    const wrongToken = (await notifier({ bot_token: '123456789:AAwrongwrongwrongwrongwrongwrong' }).send(delivery()).catch((e: unknown) => e)) as NotifyError;
    expect([wrongToken.message, wrongToken.retryable]).toEqual(['Telegram sendMessage answered 401: Unauthorized', false]);
  });

  it('splits a storm, and a retry sends only the messages not yet delivered', async () => {
    const storm = Array.from({ length: 200 }, (_, i) => alert({ fingerprint: `f${i}`, labels: { alertname: 'WithdrawDisabled', exchange: 'main', severity: 'critical', coin: `C${i}`, network: 'N' } }));
    const d = delivery(storm);
    const n = notifier();
    tg.fail('sendMessage', 'pass', { status: 429, description: 'Too Many Requests: retry after 1', retryAfter: 1 });
    await expect(n.send(d)).rejects.toMatchObject({ reason: 'rate_limited', retryAfterMs: 1000 });
    await n.send(d);
    expect(tg.requests).toHaveLength(4);
    expect(tg.sent.map((s) => s.text.split('\n')[0])).toEqual([1, 2, 3].map((p) => `🔴 FIRING · WithdrawDisabled · main · 200 alerts · part ${p}/3`));
    expect(tg.sent[2]?.text).toMatch(/…and \d+ more alerts not shown here\n\nStatus page$/);
  });
});

describe('Telegram receiver, through the outbox and the retry stage', () => {
  let tg: TelegramDouble;
  let temp: TempStore;
  let dispatcher: Agent;
  let notifications: Notifications | undefined;
  beforeEach(async () => {
    tg = await new TelegramDouble(TOKEN).chat(CHAT).start();
    temp = openTempStore('spotwatch-telegram-');
    dispatcher = new Agent();
  });
  afterEach(async () => {
    await notifications?.stop();
    notifications = undefined;
    await tg.stop();
    await dispatcher.close();
    temp.close();
  });

  function config(chatId: number): Config {
    const text = `exchanges:\n  - name: main\nnotify:\n  group_wait: 0s\n  group_interval: 1s\n  retry: { base_delay: 10ms, max_delay: 20ms }\n  receivers:\n    - name: desk\n      telegram: { bot_token: "${TOKEN}", chat_id: "${chatId}", api_url: "${tg.url}" }\n`;
    const parsed = parseConfig(text, 'c.yaml', {}, temp.dir);
    if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
    return parsed.config;
  }

  function start(chatId: number, logger = debugLogger().logger): string[] {
    const outcomes: string[] = [];
    notifications = new Notifications(config(chatId), {
      store: temp.store, clock: systemClock, random: () => 0.5, logger, dispatcher, externalURL: 'http://sw', activeAlerts: () => [],
      onOutcome: (receiver, outcome, reason) => outcomes.push(`${receiver} ${outcome}${reason ? ` ${reason}` : ''}`),
    });
    notifications.start();
    return outcomes;
  }

  it('retries a server error, waits as long as flood control says, then delivers; and tells the resolution', async () => {
    const outcomes = start(CHAT);
    tg.fail('sendMessage', { status: 500, description: 'Internal Server Error' }, { status: 429, description: 'Too Many Requests: retry after 1', retryAfter: 1 });
    const began = Date.now();
    notifications?.insert([alert({ startsAt: Date.now(), activeAt: Date.now() })]);
    await waitFor(() => outcomes.includes('desk success'), 'the message after flood control', 5000);
    expect(tg.sent).toHaveLength(1);
    expect(Date.now() - began).toBeGreaterThanOrEqual(950);
    expect(outcomes).toEqual(['desk retry server_error', 'desk retry rate_limited', 'desk success']);
    notifications?.insert([alert({ status: 'resolved', endsAt: Date.now() })]);
    await waitFor(() => tg.sent.length === 2, 'the resolution');
    expect(tg.sent[1]?.text.split('\n')[0]).toBe('✅ RESOLVED · WithdrawDisabled · main · 1 alert');
  });

  it('moves a notification Telegram refuses to the dead letters, with its description in the log and the reason in the metric, never the token', async () => {
    const { lines, text, logger } = debugLogger();
    const outcomes = start(-1009, logger);
    notifications?.insert([alert()]);
    await waitFor(() => temp.store.deadLetters(10).length === 1, 'the dead letter');
    expect(outcomes).toEqual(['desk failed client_error']);
    expect(temp.store.deadLetters(10)[0]?.error).toBe('Telegram sendMessage answered 400: Bad Request: chat not found');
    const failed = lines.find((l) => String(l.msg).includes('dead letters'));
    expect(failed).toMatchObject({ reason: 'client_error', error: 'Telegram sendMessage answered 400: Bad Request: chat not found' });
    expect(text()).not.toContain(TOKEN.split(':')[1]);
  });
});

