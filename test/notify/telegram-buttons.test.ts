import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUTTON_DAYS, buttonFile, buttonKey, callbackData, readCallbackData, SILENCE_SPANS, sharedLabels, silenceKeyboard } from '../../src/notify/telegram/buttons';

const TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw';
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 10, 27, 12, 0, 0);

describe('the silence buttons of a firing Telegram message', () => {
  const usdtTrc = { alertname: 'WithdrawDisabled', exchange: 'main', coin: 'USDT', network: 'TRC20' };
  const usdtErc = { alertname: 'WithdrawDisabled', exchange: 'main', coin: 'USDT', network: 'ERC20' };

  it('silence the labels the listed alerts share, and every label of a single alert', () => {
    expect(sharedLabels([{ labels: usdtTrc }])).toEqual(usdtTrc);
    expect(sharedLabels([{ labels: usdtTrc }, { labels: usdtErc }])).toEqual({ alertname: 'WithdrawDisabled', exchange: 'main', coin: 'USDT' });
    expect(sharedLabels([{ labels: usdtTrc }, { labels: { ...usdtErc, alertname: 'DepositDisabled', exchange: 'okx' } }])).toEqual({ coin: 'USDT' });
    expect(sharedLabels([{ labels: { a: '1' } }, { labels: { b: '1' } }])).toEqual({});
    expect(sharedLabels([])).toEqual({});
  });

  it('carry a short key within the 64 bytes Telegram allows, the same for the same labels in any order', () => {
    const key = buttonKey(usdtTrc);
    expect(key).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(buttonKey({ network: 'TRC20', coin: 'USDT', exchange: 'main', alertname: 'WithdrawDisabled' })).toBe(key);
    expect(buttonKey(usdtErc)).not.toBe(key);
    expect(silenceKeyboard(key)).toEqual({
      inline_keyboard: [[
        { text: 'Silence 1h', callback_data: `silence:1h:${key}` },
        { text: 'Silence 24h', callback_data: `silence:24h:${key}` },
      ]],
    });
    for (const s of SILENCE_SPANS) expect(Buffer.byteLength(callbackData(s, key))).toBeLessThanOrEqual(64);
  });

  it('read back only what they sent', () => {
    const key = buttonKey(usdtTrc);
    expect(readCallbackData(`silence:24h:${key}`)).toEqual({ span: { span: '24h', text: 'Silence 24h', ms: DAY }, key });
    expect(readCallbackData(`silence:1h:${key}`)?.span.ms).toBe(3_600_000);
    for (const bad of [undefined, '', `silence:2h:${key}`, `silence:1h:${key}x`, `silence:1h:short`, `mute:1h:${key}`, `silence:1h:${key.slice(0, 15)}!`]) expect(readCallbackData(bad)).toBeUndefined();
  });
});

describe('the file that keeps what a button stands for', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'spotwatch-buttons-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is one per bot, read by another process (a restart), and never holds the token', () => {
    const a = buttonFile(dir, TOKEN);
    expect(a.path).toBe(join(dir, 'telegram-123456789.buttons.json'));
    a.remember('k1aaaaaaaaaaaaaa', { coin: 'USDT' }, T0);
    a.remember('k2aaaaaaaaaaaaaa', { coin: 'BTC', network: 'BTC' }, T0 + 1);
    const b = buttonFile(dir, TOKEN);
    expect(b.recall('k1aaaaaaaaaaaaaa')).toEqual({ coin: 'USDT' });
    expect(b.recall('k2aaaaaaaaaaaaaa')).toEqual({ coin: 'BTC', network: 'BTC' });
    expect(b.recall('nope')).toBeUndefined();
    expect(readFileSync(b.path, 'utf8')).not.toContain(TOKEN.split(':')[1]);
  });

  it('sees keys another receiver of the same bot wrote after it started', () => {
    const a = buttonFile(dir, TOKEN);
    const b = buttonFile(dir, TOKEN);
    a.remember('k1aaaaaaaaaaaaaa', { coin: 'USDT' }, T0);
    b.remember('k2aaaaaaaaaaaaaa', { coin: 'BTC' }, T0);
    expect(a.recall('k2aaaaaaaaaaaaaa')).toEqual({ coin: 'BTC' });
    expect(buttonFile(dir, TOKEN).recall('k1aaaaaaaaaaaaaa')).toEqual({ coin: 'USDT' });
  });

  it(`forgets keys no message carried for ${BUTTON_DAYS} days, and keeps those carried again`, () => {
    const a = buttonFile(dir, TOKEN);
    a.remember('oldaaaaaaaaaaaaa', { coin: 'OLD' }, T0);
    a.remember('keptaaaaaaaaaaaa', { coin: 'KEPT' }, T0);
    a.remember('keptaaaaaaaaaaaa', { coin: 'KEPT' }, T0 + 20 * DAY);
    a.remember('newaaaaaaaaaaaaa', { coin: 'NEW' }, T0 + (BUTTON_DAYS + 1) * DAY);
    const b = buttonFile(dir, TOKEN);
    expect(b.recall('oldaaaaaaaaaaaaa')).toBeUndefined();
    expect(b.recall('keptaaaaaaaaaaaa')).toEqual({ coin: 'KEPT' });
    expect(b.recall('newaaaaaaaaaaaaa')).toEqual({ coin: 'NEW' });
  });

  it('reads a damaged file as empty, and a damaged entry as unknown', () => {
    const a = buttonFile(dir, TOKEN);
    writeFileSync(a.path, '{"buttons":{"k1aaaaaaaaaaaaaa":{"labels":{"coin":5},"at":1},"k2aaaaaaaaaaaaaa":{"labels":{"coin":"ETH"},"at":1}');
    expect(a.recall('k2aaaaaaaaaaaaaa')).toBeUndefined();
    writeFileSync(a.path, '{"buttons":{"k1aaaaaaaaaaaaaa":{"labels":{"coin":5},"at":1},"k2aaaaaaaaaaaaaa":{"labels":{"coin":"ETH"},"at":1}}}');
    expect(a.recall('k1aaaaaaaaaaaaaa')).toBeUndefined();
    expect(a.recall('k2aaaaaaaaaaaaaa')).toEqual({ coin: 'ETH' });
  });
});
