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

/**
 * Lines rendered per record, reused while the record object is the same (merge keeps the
 * previous object of an unchanged coin or ticker), so a poll renders only what changed.
 * A record's entry holds one string per family of its part, in the order below.
 */
export type RenderCache = WeakMap<object, string[]>;

const NETWORK_FAMILIES = [
  'spotwatch_network_deposit_enabled',
  'spotwatch_network_withdraw_enabled',
  'spotwatch_network_withdraw_fee',
  'spotwatch_network_withdraw_min',
  'spotwatch_network_desc_present',
] as const satisfies readonly FamilyName[];

const TICKER_FAMILIES = [
  'spotwatch_ticker_last_price',
  'spotwatch_ticker_price_change_ratio',
  'spotwatch_ticker_spread_ratio',
  'spotwatch_ticker_quote_volume',
  'spotwatch_ticker_close_timestamp_seconds',
] as const satisfies readonly FamilyName[];

/** Appends each record's lines (rendered, or from the cache) to its family's list. */
function collect<T extends object>(families: readonly FamilyName[], records: Iterable<T>, include: (r: T) => boolean, render: (r: T) => string[], cache?: RenderCache): FamilyLines {
  const parts: string[][] = families.map(() => []);
  for (const r of records) {
    if (!include(r)) continue;
    let lines = cache?.get(r);
    if (lines === undefined) {
      lines = render(r);
      cache?.set(r, lines);
    }
    for (let i = 0; i < parts.length; i++) if (lines[i] !== '') (parts[i] as string[]).push(lines[i] as string);
  }
  const out: FamilyLines = {};
  families.forEach((name, i) => {
    out[name] = (parts[i] as string[]).join('');
  });
  return out;
}

/** A filter on coin, network and symbol names, to bound cardinality. */
export type SeriesFilter = (label: 'coin' | 'network' | 'symbol', value: string) => boolean;

export function renderNetworks(snapshot: Snapshot, keep: SeriesFilter, cache?: RenderCache): FamilyLines {
  const ex = esc(snapshot.exchange);
  return collect(NETWORK_FAMILIES, snapshot.coins.values(), (c) => keep('coin', c.coin), (c) => {
    const lines = ['', '', '', '', ''];
    const coin = esc(c.coin);
    for (const n of c.networkList) {
      if (!keep('network', n.network)) continue;
      const l = `{exchange="${ex}",coin="${coin}",network="${esc(n.network)}"}`;
      lines[0] += `spotwatch_network_deposit_enabled${l} ${n.depositEnable ? 1 : 0}\n`;
      lines[1] += `spotwatch_network_withdraw_enabled${l} ${n.withdrawEnable ? 1 : 0}\n`;
      const fee = decimalToNumber(n.withdrawFee);
      if (fee !== undefined) lines[2] += `spotwatch_network_withdraw_fee${l} ${num(fee)}\n`;
      const min = decimalToNumber(n.withdrawMin);
      if (min !== undefined) lines[3] += `spotwatch_network_withdraw_min${l} ${num(min)}\n`;
      const dl = l.slice(0, -1);
      lines[4] += `spotwatch_network_desc_present${dl},direction="deposit"} ${blankToNull(n.depositDesc) === null ? 0 : 1}\n`;
      lines[4] += `spotwatch_network_desc_present${dl},direction="withdraw"} ${blankToNull(n.withdrawDesc) === null ? 0 : 1}\n`;
    }
    return lines;
  }, cache);
}

export function renderTickers(snapshot: Snapshot, keep: SeriesFilter, cache?: RenderCache): FamilyLines {
  const ex = esc(snapshot.exchange);
  return collect(TICKER_FAMILIES, snapshot.tickers.values(), (t) => keep('symbol', t.symbol), (t) => {
    const lines = ['', '', '', '', ''];
    const l = `{exchange="${ex}",symbol="${esc(t.symbol)}"}`;
    const last = decimalToNumber(t.lastPrice);
    if (last !== undefined) lines[0] = `spotwatch_ticker_last_price${l} ${num(last)}\n`;
    const open = decimalToNumber(t.openPrice);
    if (last !== undefined && open !== undefined && open !== 0) lines[1] = `spotwatch_ticker_price_change_ratio${l} ${num((last - open) / open)}\n`;
    const bid = decimalToNumber(t.bidPrice);
    const ask = decimalToNumber(t.askPrice);
    if (bid !== undefined && ask !== undefined && bid > 0 && ask > 0) lines[2] = `spotwatch_ticker_spread_ratio${l} ${num((ask - bid) / ((ask + bid) / 2))}\n`;
    const qv = decimalToNumber(t.quoteVolume);
    if (qv !== undefined) lines[3] = `spotwatch_ticker_quote_volume${l} ${num(qv)}\n`;
    if (t.closeTime !== null) lines[4] = `spotwatch_ticker_close_timestamp_seconds${l} ${num(t.closeTime / 1000)}\n`;
    return lines;
  }, cache);
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
