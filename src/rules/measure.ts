/**
 * What rules measure on a ticker, and the two formulas the metrics export as well (a change
 * and a spread as ratios). Percent changes come from openPrice and lastPrice, never from
 * priceChangePercent, which real deployments send as a ratio despite its name.
 */
import { decimalToNumber } from '../snapshot/decimal-value';
import { referenceSample, type Samples } from './ticker-samples';
import type { TickerMeasure } from './model';
import type { TickerRecord } from '../snapshot/model';

/** (last - from) / from; undefined without both prices or from a price of zero. */
export function changeRatio(last: number | undefined, from: number | undefined): number | undefined {
  return last === undefined || from === undefined || from === 0 ? undefined : (last - from) / from;
}

/** (ask - bid) / mid; undefined unless both are positive (an empty book side reads 0). */
export function spreadRatio(bid: number | undefined, ask: number | undefined): number | undefined {
  return bid === undefined || ask === undefined || bid <= 0 || ask <= 0 ? undefined : (ask - bid) / ((ask + bid) / 2);
}

/** The value of a ticker measure, or undefined when it cannot be computed (a missing field, a zero open price). */
export function measure(
  kind: Exclude<TickerMeasure, 'missing'>,
  t: TickerRecord,
  now: number,
  samples: Samples,
  windowMs: number | undefined,
): number | undefined {
  const last = decimalToNumber(t.lastPrice);
  switch (kind) {
    case 'change_24h_percent':
      return times(changeRatio(last, decimalToNumber(t.openPrice)), 100);
    case 'move_percent':
      return times(changeRatio(last, referenceSample(samples, t.symbol, now - (windowMs ?? 0))?.price), 100);
    case 'spread_bps':
      return times(spreadRatio(decimalToNumber(t.bidPrice), decimalToNumber(t.askPrice)), 10_000);
    case 'last_price':
      return last;
    case 'volume':
      return decimalToNumber(t.volume);
    case 'quote_volume':
      return decimalToNumber(t.quoteVolume);
    case 'stale_for': {
      const since = samples.get(t.symbol)?.unchangedSince;
      return since === undefined ? undefined : (now - since) / 1000;
    }
  }
}

function times(ratio: number | undefined, factor: number): number | undefined {
  return ratio === undefined ? undefined : ratio * factor;
}
