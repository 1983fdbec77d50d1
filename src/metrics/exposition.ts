import { decimalToNumber } from '../snapshot/decimal';
import { blankToNull } from '../snapshot/diff';
import type { Snapshot } from '../snapshot/model';

/**
 * The per-network and per-ticker families (tens of thousands of series), rendered straight
 * from a snapshot into the text exposition format. Rendered once per accepted poll, not per
 * scrape. Upstream text appears only as the identifiers the contract makes labels (coin,
 * network, symbol), escaped; messages never become label values.
 */

function esc(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function num(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Infinity) return '+Inf';
  if (n === -Infinity) return '-Inf';
  return String(n);
}

/** The families rendered from snapshots, with their help text, in exposition order. */
export const SNAPSHOT_FAMILIES = {
  spotwatch_network_deposit_enabled: '1 when deposits are enabled on the network.',
  spotwatch_network_withdraw_enabled: '1 when withdrawals are enabled on the network.',
  spotwatch_network_withdraw_fee: 'Withdrawal fee, in units of the coin.',
  spotwatch_network_withdraw_min: 'Minimum withdrawal, in units of the coin.',
  spotwatch_network_desc_present: '1 when the network shows a deposit or withdrawal message.',
  spotwatch_ticker_last_price: 'Last traded price.',
  spotwatch_ticker_price_change_ratio: '24-hour change as a ratio, from openPrice and lastPrice.',
  spotwatch_ticker_spread_ratio: '(ask - bid) / mid.',
  spotwatch_ticker_quote_volume: '24-hour volume in the quote asset.',
  spotwatch_ticker_close_timestamp_seconds: 'closeTime of the 24-hour window.',
} as const;

export type FamilyName = keyof typeof SNAPSHOT_FAMILIES;

/** Sample lines of each family for one exchange and one part (each line ends with a newline). */
export type FamilyLines = Partial<Record<FamilyName, string>>;

class Lines {
  readonly by: Partial<Record<FamilyName, string[]>> = {};
  add(name: FamilyName, labels: string, value: number): void {
    (this.by[name] ??= []).push(`${name}${labels} ${num(value)}\n`);
  }
  done(): FamilyLines {
    const out: FamilyLines = {};
    for (const [k, v] of Object.entries(this.by)) out[k as FamilyName] = v.join('');
    return out;
  }
}

/** A filter on coin, network and symbol names, to bound cardinality. */
export type SeriesFilter = (label: 'coin' | 'network' | 'symbol', value: string) => boolean;

export function renderNetworks(snapshot: Snapshot, keep: SeriesFilter): FamilyLines {
  const out = new Lines();
  const ex = esc(snapshot.exchange);
  for (const c of snapshot.coins.values()) {
    if (!keep('coin', c.coin)) continue;
    const coin = esc(c.coin);
    for (const n of c.networkList) {
      if (!keep('network', n.network)) continue;
      const l = `{exchange="${ex}",coin="${coin}",network="${esc(n.network)}"}`;
      out.add('spotwatch_network_deposit_enabled', l, n.depositEnable ? 1 : 0);
      out.add('spotwatch_network_withdraw_enabled', l, n.withdrawEnable ? 1 : 0);
      const fee = decimalToNumber(n.withdrawFee);
      if (fee !== undefined) out.add('spotwatch_network_withdraw_fee', l, fee);
      const min = decimalToNumber(n.withdrawMin);
      if (min !== undefined) out.add('spotwatch_network_withdraw_min', l, min);
      const dl = l.slice(0, -1);
      out.add('spotwatch_network_desc_present', `${dl},direction="deposit"}`, blankToNull(n.depositDesc) === null ? 0 : 1);
      out.add('spotwatch_network_desc_present', `${dl},direction="withdraw"}`, blankToNull(n.withdrawDesc) === null ? 0 : 1);
    }
  }
  return out.done();
}

export function renderTickers(snapshot: Snapshot, keep: SeriesFilter): FamilyLines {
  const out = new Lines();
  const ex = esc(snapshot.exchange);
  for (const t of snapshot.tickers.values()) {
    if (!keep('symbol', t.symbol)) continue;
    const l = `{exchange="${ex}",symbol="${esc(t.symbol)}"}`;
    const last = decimalToNumber(t.lastPrice);
    if (last !== undefined) out.add('spotwatch_ticker_last_price', l, last);
    const open = decimalToNumber(t.openPrice);
    if (last !== undefined && open !== undefined && open !== 0) out.add('spotwatch_ticker_price_change_ratio', l, (last - open) / open);
    const bid = decimalToNumber(t.bidPrice);
    const ask = decimalToNumber(t.askPrice);
    if (bid !== undefined && ask !== undefined && bid > 0 && ask > 0) out.add('spotwatch_ticker_spread_ratio', l, (ask - bid) / ((ask + bid) / 2));
    const qv = decimalToNumber(t.quoteVolume);
    if (qv !== undefined) out.add('spotwatch_ticker_quote_volume', l, qv);
    if (t.closeTime !== null) out.add('spotwatch_ticker_close_timestamp_seconds', l, t.closeTime / 1000);
  }
  return out.done();
}

/** Every family, with the lines of every exchange and part, as one exposition text. */
export function assemble(parts: Iterable<FamilyLines>): string {
  const list = [...parts];
  let out = '';
  for (const [name, help] of Object.entries(SNAPSHOT_FAMILIES)) {
    out += `# HELP ${name} ${help}\n# TYPE ${name} gauge\n`;
    for (const p of list) out += p[name as FamilyName] ?? '';
  }
  return out;
}
