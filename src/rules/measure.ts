import { decimalToNumber } from '../snapshot/decimal';
import type { TickerHistory } from './history';
import type { TickerMeasure } from './model';
import type { TickerRecord } from '../snapshot/model';

/**
 * The value of a ticker measure, or undefined when it cannot be computed (a missing field,
 * a zero open price). Percent changes come from openPrice and lastPrice, never from
 * priceChangePercent, which real deployments send as a ratio despite its name.
 */
export function measure(
  kind: Exclude<TickerMeasure, 'missing'>,
  t: TickerRecord,
  now: number,
  history: TickerHistory,
  windowMs: number | undefined,
): number | undefined {
  const last = decimalToNumber(t.lastPrice);
  switch (kind) {
    case 'change_24h_percent': {
      const open = decimalToNumber(t.openPrice);
      return last === undefined || open === undefined || open === 0 ? undefined : ((last - open) / open) * 100;
    }
    case 'move_percent': {
      const ref = history.reference(t.symbol, now - (windowMs ?? 0));
      return last === undefined || ref === undefined || ref.price === 0 ? undefined : ((last - ref.price) / ref.price) * 100;
    }
    case 'spread_bps': {
      const bid = decimalToNumber(t.bidPrice);
      const ask = decimalToNumber(t.askPrice);
      if (bid === undefined || ask === undefined || bid <= 0 || ask <= 0) return undefined;
      return ((ask - bid) / ((ask + bid) / 2)) * 10_000;
    }
    case 'last_price':
      return last;
    case 'volume':
      return decimalToNumber(t.volume);
    case 'quote_volume':
      return decimalToNumber(t.quoteVolume);
    case 'stale_for': {
      const since = history.unchangedSince(t.symbol);
      return since === undefined ? undefined : (now - since) / 1000;
    }
  }
}
