/**
 * What must hold in every ticker the reference exchange sends (unless a test forced values with
 * set_ticker): types, exact priceChange, the ratio in priceChangePercent, the ordering of
 * low/open/last/high and bid/ask, and the 24-hour window.
 */
import { TICKER_FIELD_NAMES, type WireTicker } from '../../src/exchange/dialects/spot-v3/wire';
import { compare, differenceIs, exact } from './decimal';

type Json = Record<string, unknown>;

const DECIMAL = /^-?(0|[1-9]\d*)(\.\d+)?$/;
const DAY_MS = 86_400_000;
const RATIO_PLACES = 6;

/** change / open rounded half away from zero to six places, as text. */
export function expectedRatio(change: string, open: string): string {
  const c = exact(change);
  const o = exact(open);
  const scale = Math.max(c.scale, o.scale);
  const num = c.units * 10n ** BigInt(scale - c.scale) * 10n ** BigInt(RATIO_PLACES);
  const den = o.units * 10n ** BigInt(scale - o.scale);
  const negative = num < 0n;
  const q = ((negative ? -num : num) * 2n + den) / (2n * den);
  const digits = q.toString().padStart(RATIO_PLACES + 1, '0');
  const text = `${digits.slice(0, -RATIO_PLACES)}.${digits.slice(-RATIO_PLACES)}`;
  return negative && q !== 0n ? `-${text}` : text;
}

/** Every broken promise of one ticker at clock time `now`, as text; empty when it is sound. */
export function tickerProblems(t: Json, now: number): string[] {
  const problems: string[] = [];
  const name = String(t.symbol);
  if (Object.keys(t).join() !== TICKER_FIELD_NAMES.join()) problems.push(`${name}: fields ${Object.keys(t).join()}`);
  for (const f of TICKER_FIELD_NAMES) {
    if (f === 'symbol' || f === 'openTime' || f === 'closeTime' || f === 'count') continue;
    if (typeof t[f] !== 'string' || !DECIMAL.test(t[f] as string)) problems.push(`${name}: ${f} ${JSON.stringify(t[f])}`);
  }
  for (const f of ['openTime', 'closeTime', 'count'] as const) {
    if (!Number.isSafeInteger(t[f])) problems.push(`${name}: ${f} ${JSON.stringify(t[f])}`);
  }
  if (problems.length > 0) return problems;
  // Every field's type was checked just above.
  const s = t as unknown as WireTicker;
  if (!differenceIs(s.lastPrice, s.openPrice, s.priceChange)) problems.push(`${name}: ${s.lastPrice} - ${s.openPrice} != ${s.priceChange}`);
  if (s.priceChangePercent !== expectedRatio(s.priceChange, s.openPrice)) problems.push(`${name}: ratio ${s.priceChangePercent}`);
  if (compare(s.lowPrice, s.openPrice) > 0 || compare(s.openPrice, s.highPrice) > 0) problems.push(`${name}: open outside low..high`);
  if (compare(s.lowPrice, s.lastPrice) > 0 || compare(s.lastPrice, s.highPrice) > 0) problems.push(`${name}: last outside low..high`);
  if (compare(s.bidPrice, '0') <= 0 || compare(s.bidPrice, s.askPrice) > 0) problems.push(`${name}: bid ${s.bidPrice} ask ${s.askPrice}`);
  if (compare(s.lowPrice, '0') <= 0) problems.push(`${name}: low ${s.lowPrice}`);
  if (compare(s.bidQty, '0') <= 0 || compare(s.askQty, '0') <= 0) problems.push(`${name}: empty book`);
  if (compare(s.volume, '0') < 0 || compare(s.quoteVolume, '0') < 0 || s.count < 0) problems.push(`${name}: negative volume`);
  if (s.closeTime - s.openTime !== DAY_MS) problems.push(`${name}: window ${s.closeTime - s.openTime}`);
  if (s.closeTime > now || s.closeTime <= now - 1_000 || s.closeTime % 1_000 !== 0) problems.push(`${name}: closeTime ${s.closeTime} at ${now}`);
  return problems;
}
