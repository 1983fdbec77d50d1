/**
 * One ticker object. Prices are tick integers printed with the symbol's places, so
 * priceChange == lastPrice - openPrice exactly; priceChangePercent is the ratio
 * priceChange / openPrice to six places, as real deployments send it despite its name.
 */
import { TICKER_FIELD_NAMES } from '../../exchange/dialects/spot-v3/wire';
import { formatRatio, formatScaled } from '../market/decimal';
import { unitHash } from '../market/hash';
import type { JsonValue, SimSymbol } from '../market/model';
import { DAY_MS, type WindowStats } from './window';

/** Globals read once: see market/hash.ts (global lookups are slow under jest's vm context). */
const { max, round, floor } = Math;
const { stringify } = JSON;
const toBigInt = BigInt;

const RATIO_PLACES = 6;
const SPREAD_SALT = 0x61c88647;
const BID_SALT = 0x7f4a7c15;
const QTY_SALT = 0x94d049bb;

/** Book top at second `second`: bid <= last <= ask, bid at least one tick. */
function bookTop(s: SimSymbol, lastTicks: number, second: number): { bid: number; ask: number; bidQty: number; askQty: number } {
  const spread = max(1, round(lastTicks * s.spread * (0.5 + unitHash(s.seed ^ SPREAD_SALT, second))));
  const gap = floor(spread * unitHash(s.seed ^ BID_SALT, second));
  const bid = max(1, lastTicks - gap);
  const typicalQty = s.bucketVolumeUnits / 50;
  return {
    bid,
    ask: bid + spread,
    bidQty: max(1, round(typicalQty * (0.05 + 2 * unitHash(s.seed ^ QTY_SALT, second)))),
    askQty: max(1, round(typicalQty * (0.05 + 2 * unitHash(s.seed ^ QTY_SALT, second + 1)))),
  };
}

export function renderTicker(s: SimSymbol, stats: WindowStats, closeTime: number): string {
  // Decimal and integer texts need no JSON escaping; only the symbol goes through stringify.
  const price = (ticks: number): string => formatScaled(ticks, s.priceDecimals);
  const qty = (units: number): string => formatScaled(units, s.qtyDecimals);
  const top = bookTop(s, stats.lastTicks, floor(closeTime / 1000));
  const change = stats.lastTicks - stats.openTicks;
  const ratio = formatRatio(toBigInt(change), toBigInt(stats.openTicks), RATIO_PLACES);
  const json = `{"symbol":${stringify(s.symbol)},"priceChange":"${price(change)}","priceChangePercent":"${ratio}",`
    + `"lastPrice":"${price(stats.lastTicks)}","bidPrice":"${price(top.bid)}","bidQty":"${qty(top.bidQty)}",`
    + `"askPrice":"${price(top.ask)}","askQty":"${qty(top.askQty)}","openPrice":"${price(stats.openTicks)}",`
    + `"highPrice":"${price(stats.highTicks)}","lowPrice":"${price(stats.lowTicks)}","volume":"${qty(stats.volumeUnits)}",`
    + `"quoteVolume":"${formatScaled(stats.quoteUnits, s.quoteDecimals)}","openTime":${closeTime - DAY_MS},`
    + `"closeTime":${closeTime},"count":${stats.count}}`;
  return s.overrides.size === 0 ? json : applyOverrides(json, s.overrides);
}

/** set_ticker values win: hostile-data tests need values no real computation would give. */
function applyOverrides(json: string, overrides: ReadonlyMap<string, JsonValue>): string {
  const fields = JSON.parse(json) as Record<string, JsonValue>;
  const parts = TICKER_FIELD_NAMES.map((f) => `"${f}":${JSON.stringify(overrides.has(f) ? overrides.get(f) : fields[f])}`);
  return `{${parts.join(',')}}`;
}
