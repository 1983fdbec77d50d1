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
  /** Lines already rendered for one record. */
  addAll(lines: FamilyLines): void {
    for (const [k, v] of Object.entries(lines)) (this.by[k as FamilyName] ??= []).push(v);
  }
  done(): FamilyLines {
    const out: FamilyLines = {};
    for (const [k, v] of Object.entries(this.by)) out[k as FamilyName] = v.join('');
    return out;
  }
}

/**
 * Lines rendered per record, reused while the record object is the same (merge keeps the
 * previous object of an unchanged coin or ticker), so a poll renders only what changed.
 */
export type RenderCache = WeakMap<object, FamilyLines>;

function cached<T extends object>(cache: RenderCache | undefined, record: T, render: (r: T, out: Lines) => void): FamilyLines {
  const hit = cache?.get(record);
  if (hit !== undefined) return hit;
  const out = new Lines();
  render(record, out);
  const lines = out.done();
  cache?.set(record, lines);
  return lines;
}

/** A filter on coin, network and symbol names, to bound cardinality. */
export type SeriesFilter = (label: 'coin' | 'network' | 'symbol', value: string) => boolean;

export function renderNetworks(snapshot: Snapshot, keep: SeriesFilter, cache?: RenderCache): FamilyLines {
  const out = new Lines();
  const ex = esc(snapshot.exchange);
  for (const c of snapshot.coins.values()) {
    if (!keep('coin', c.coin)) continue;
    out.addAll(cached(cache, c, (coinRecord, lines) => {
      const coin = esc(coinRecord.coin);
      for (const n of coinRecord.networkList) {
        if (!keep('network', n.network)) continue;
        const l = `{exchange="${ex}",coin="${coin}",network="${esc(n.network)}"}`;
        lines.add('spotwatch_network_deposit_enabled', l, n.depositEnable ? 1 : 0);
        lines.add('spotwatch_network_withdraw_enabled', l, n.withdrawEnable ? 1 : 0);
        const fee = decimalToNumber(n.withdrawFee);
        if (fee !== undefined) lines.add('spotwatch_network_withdraw_fee', l, fee);
        const min = decimalToNumber(n.withdrawMin);
        if (min !== undefined) lines.add('spotwatch_network_withdraw_min', l, min);
        const dl = l.slice(0, -1);
        lines.add('spotwatch_network_desc_present', `${dl},direction="deposit"}`, blankToNull(n.depositDesc) === null ? 0 : 1);
        lines.add('spotwatch_network_desc_present', `${dl},direction="withdraw"}`, blankToNull(n.withdrawDesc) === null ? 0 : 1);
      }
    }));
  }
  return out.done();
}

export function renderTickers(snapshot: Snapshot, keep: SeriesFilter, cache?: RenderCache): FamilyLines {
  const out = new Lines();
  const ex = esc(snapshot.exchange);
  for (const t of snapshot.tickers.values()) {
    if (!keep('symbol', t.symbol)) continue;
    out.addAll(cached(cache, t, (tk, lines) => {
      const l = `{exchange="${ex}",symbol="${esc(tk.symbol)}"}`;
      const last = decimalToNumber(tk.lastPrice);
      if (last !== undefined) lines.add('spotwatch_ticker_last_price', l, last);
      const open = decimalToNumber(tk.openPrice);
      if (last !== undefined && open !== undefined && open !== 0) lines.add('spotwatch_ticker_price_change_ratio', l, (last - open) / open);
      const bid = decimalToNumber(tk.bidPrice);
      const ask = decimalToNumber(tk.askPrice);
      if (bid !== undefined && ask !== undefined && bid > 0 && ask > 0) lines.add('spotwatch_ticker_spread_ratio', l, (ask - bid) / ((ask + bid) / 2));
      const qv = decimalToNumber(tk.quoteVolume);
      if (qv !== undefined) lines.add('spotwatch_ticker_quote_volume', l, qv);
      if (tk.closeTime !== null) lines.add('spotwatch_ticker_close_timestamp_seconds', l, tk.closeTime / 1000);
    }));
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
