import type { Alert } from '../../src/alerts/alert';
import { buildDelivery } from '../../src/notify/pipeline/build-delivery';
import { htmlProblem } from '../../src/notify/telegram/html';
import { span } from '../../src/lib/duration';
import { MAX_MESSAGES, TELEGRAM_TEXT_LIMIT, TemplateTooLong, telegramMessages } from '../../src/notify/telegram/message';
import { parseTelegramHtml } from '../support/doubles/telegram-html';

const T0 = Date.UTC(2026, 0, 2, 3, 4, 5);

function alert(over: Partial<Alert> & { labels?: Record<string, string>; annotations?: Record<string, string> } = {}): Alert {
  return {
    fingerprint: '0123456789abcdef', ruleId: 'r', entity: 'e',
    labels: { alertname: 'WithdrawDisabled', exchange: 'main', severity: 'critical', coin: 'USDT', network: 'Tron(TRC20)', chain: 'tron', kind: 'withdraw_disabled' },
    annotations: { summary: 'USDT withdrawals closed on Tron(TRC20) (main)', withdraw_desc: 'Wallet maintenance' },
    status: 'firing', activeAt: T0, startsAt: T0, endsAt: null, lastActiveAt: T0, lastNotifiedAt: null, value: 1, event: false,
    ...over,
  };
}

function notification(alerts: Alert[]) {
  return buildDelivery('desk', { exchange: 'main', alertname: 'WithdrawDisabled' }, alerts, 'http://sw.example:9464', 1).notification;
}

/** Every message is what Telegram would take: its HTML parses, its text is within the limit. */
function accepted(parts: string[]): string[] {
  return parts.map((html) => {
    const text = parseTelegramHtml(html);
    expect(text.length).toBeLessThanOrEqual(TELEGRAM_TEXT_LIMIT);
    return text;
  });
}

describe('Telegram messages', () => {
  it('show a firing group with a severity mark, what closed, where, since when, the exchange\'s message and a link', () => {
    const { parts, omitted } = telegramMessages(notification([alert()]));
    expect(omitted).toBe(0);
    expect(parts).toEqual([
      '🔴 <b>FIRING · WithdrawDisabled</b> · main · 1 alert\n\n'
      + '🔴 <b>USDT withdrawals closed on Tron(TRC20) (main)</b>\n'
      + 'USDT · Tron(TRC20) (tron) · main\n'
      + 'since 2026-01-02 03:04 UTC\n'
      + '💬 <i>Wallet maintenance</i>\n\n'
      + '<a href="http://sw.example:9464">Status page</a>',
    ]);
    expect(accepted(parts)).toEqual([
      '🔴 FIRING · WithdrawDisabled · main · 1 alert\n\n🔴 USDT withdrawals closed on Tron(TRC20) (main)\nUSDT · Tron(TRC20) (tron) · main\nsince 2026-01-02 03:04 UTC\n💬 Wallet maintenance\n\nStatus page',
    ]);
  });

  it('show a resolved group with how long it lasted', () => {
    const resolved = alert({ status: 'resolved', endsAt: T0 + 2 * 3_600_000 + 5 * 60_000, labels: { alertname: 'WithdrawDisabled', exchange: 'main', severity: 'warning', coin: 'USDC', network: 'ERC20' }, annotations: { summary: 'USDC withdrawals closed on ERC20 (main)' } });
    expect(telegramMessages(notification([resolved])).parts).toEqual([
      '✅ <b>RESOLVED · WithdrawDisabled</b> · main · 1 alert\n\n✅ <b>USDC withdrawals closed on ERC20 (main)</b>\nUSDC · ERC20 · main\nresolved 2026-01-02 05:09 UTC, after 2h 5m\n\n<a href="http://sw.example:9464">Status page</a>',
    ]);
  });

  it('count firing and resolved alerts of a mixed group, marked by the most severe', () => {
    const info = alert({ fingerprint: 'a', labels: { alertname: 'WithdrawDisabled', exchange: 'main', severity: 'info', coin: 'A' } });
    const error = alert({ fingerprint: 'b', labels: { alertname: 'WithdrawDisabled', exchange: 'main', severity: 'error', coin: 'B' } });
    const done = alert({ fingerprint: 'c', status: 'resolved', endsAt: T0 + 1000 });
    const [first] = telegramMessages(notification([info, error, done])).parts;
    expect(first?.split('\n')[0]).toBe('🟠 <b>FIRING · WithdrawDisabled</b> · main · 2 firing, 1 resolved');
  });

  it('escape hostile upstream text with Telegram\'s entities only, and keep it from mentioning, commanding or forging lines', () => {
    const hostile = alert({
      labels: { alertname: 'WithdrawDisabled', exchange: 'main', severity: 'critical', coin: '<script>alert(1)</script>', network: 'A&amp;B "q"' },
      annotations: { summary: '</b><a href="http://evil">x</a>', withdraw_desc: '&lt;b&gt; &#60; &copy; @everyone @ada /silence coin=USDT 365d\r\n✅ RESOLVED fake' },
    });
    const { parts } = telegramMessages(notification([hostile]));
    expect(parts[0]).toContain('&lt;script&gt;alert(1)&lt;/script&gt; · A&amp;amp;B &quot;q&quot; · main');
    expect(parts[0]).not.toMatch(/&#39;|&copy;|<script|href="http:\/\/evil"/);
    const [text] = accepted(parts);
    expect(text?.split('\n').slice(2, 6)).toEqual([
      '🔴 </b><a href="http://evil">x</a>',
      '<script>alert(1)</script> · A&amp;B "q" · main',
      'since 2026-01-02 03:04 UTC',
      '💬 &lt;b&gt; &#60; &copy; @\u2060everyone @\u2060ada /\u2060silence coin=USDT 365d ✅ RESOLVED fake',
    ]);
  });

  it('cut a 100 KB message from the exchange, and stay within the limit', () => {
    const huge = alert({ annotations: { summary: 'S'.repeat(100_000), withdraw_desc: `<${'x'.repeat(100_000)}>` } });
    const { parts } = telegramMessages(notification([huge]));
    const [text] = accepted(parts);
    expect(text).toContain(`🔴 ${'S'.repeat(299)}…\n`);
    expect(text).toContain(`💬 <${'x'.repeat(598)}…\n`);
  });

  it('split a storm over at most MAX_MESSAGES messages and say how many alerts were left out', () => {
    const storm = Array.from({ length: 3000 }, (_, i) => alert({ fingerprint: `f${i}`, labels: { alertname: 'WithdrawDisabled', exchange: 'main', severity: 'critical', coin: `C${i}`, network: 'N' } }));
    const { parts, omitted } = telegramMessages(notification(storm));
    expect(parts).toHaveLength(MAX_MESSAGES);
    const texts = accepted(parts);
    const shown = texts.join('\n').match(/^🔴 USDT withdrawals/gm)?.length ?? 0;
    expect(shown + omitted).toBe(3000);
    expect(omitted).toBeGreaterThan(2500);
    expect(texts.map((t) => t.split('\n')[0])).toEqual([1, 2, 3].map((p) => `🔴 FIRING · WithdrawDisabled · main · 3000 alerts · part ${p}/3`));
    expect(texts[2]).toMatch(new RegExp(`\\n\\n…and ${omitted} more alerts not shown here\\n\\nStatus page$`));
    expect(texts[0]).not.toContain('more alerts');
  });

  it('keep a small group in one message', () => {
    const group = Array.from({ length: 10 }, (_, i) => alert({ fingerprint: `f${i}` }));
    expect(telegramMessages(notification(group))).toMatchObject({ omitted: 0, parts: [expect.any(String)] });
  });

  it('render a template of your own over the same fields, values escaped', () => {
    const template = '{{mark}} <b>{{status}}</b> {{commonLabels.coin}} ({{count}})\n{{alerts}}{{more}}';
    const odd = alert({ labels: { alertname: 'W', exchange: 'main', severity: 'info', coin: '<i>&' } });
    const { parts } = telegramMessages(notification([odd]), template);
    expect(parts[0]?.split('\n')[0]).toBe('🔵 <b>firing</b> &lt;i&gt;&amp; (1)');
    accepted(parts);
  });

  it('refuse a template that leaves no room for an alert', () => {
    expect(() => telegramMessages(notification([alert()]), `${'x'.repeat(4000)}{{alerts}}`)).toThrow(TemplateTooLong);
  });
});

describe('template HTML check', () => {
  it.each([
    ['<b>{{status}}</b> <a href="{{externalURL}}">x</a> <code>a</code> &lt; &#8212;', undefined],
    ['<p>x</p>', '<p> is not a tag Telegram supports (use b, i, u, s, a, code, pre, blockquote, tg-spoiler)'],
    ['<b><i>x</b></i>', '</b> closes a tag that is not the last one open'],
    ['<b>x', '<b> is never closed'],
    ['a &copy; b', '&copy; is not an entity Telegram knows (only &lt; &gt; &amp; &quot; and numeric ones)'],
    ['a & b', 'a bare "&": write &amp; instead'],
    ['1 < 2', 'a bare "<": write &lt; instead'],
  ])('%s', (template, problem) => {
    expect(htmlProblem(template)).toBe(problem);
  });
});

describe('span', () => {
  it.each([
    [0, '0s'],
    [45_000, '45s'],
    [3_600_000 + 5 * 60_000 + 7_000, '1h 5m'],
    [3 * 86_400_000 + 4 * 3_600_000, '3d 4h'],
    [86_400_000 + 30_000, '1d'],
  ])('%d ms is %s', (ms, text) => {
    expect(span(ms)).toBe(text);
  });
});
