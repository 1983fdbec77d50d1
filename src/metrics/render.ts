/**
 * The per-network and per-ticker families (tens of thousands of series), rendered straight
 * from a snapshot into the text exposition format. Rendered once per accepted poll, not per
 * scrape. Upstream text appears only as the identifiers the contract makes labels (coin,
 * network, symbol), escaped; messages never become label values.
 */
import { changeRatio, spreadRatio } from '../rules/measure';
import { decimalToNumber } from '../snapshot/decimal-value';
import { blankToNull } from '../snapshot/diff';
import type { Snapshot } from '../snapshot/model';

const NEEDS_ESCAPE = /[\\"\n]/;

function esc(value: string): string {
  if (!NEEDS_ESCAPE.test(value)) return value;
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function num(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Infinity) return '+Inf';
  if (n === -Infinity) return '-Inf';
  return String(n);
}

const PLAIN_DECIMAL = /^-?\d{1,20}(?:\.\d{1,20})?$/;

/**
 * A finite decimal's sample value: a plain decimal as the exchange wrote it (every parser of
 * the format reads it, and it spares formatting a float, the most expensive step of
 * rendering), anything else (exponents, a sign, a bare point) as the float's shortest text.
 */
function sampleValue(text: string, value: number): string {
  return PLAIN_DECIMAL.test(text) ? text : num(value);
}

/** Milliseconds as seconds, exactly, without formatting a float (the same text as the float's shortest form up to the year 5000). */
function seconds(ms: number): string {
  if (ms < 0) return num(ms / 1000);
  const whole = Math.floor(ms / 1000);
  const rest = ms - whole * 1000;
  if (rest === 0) return String(whole);
  return `${whole}.${String(rest).padStart(3, '0').replace(/0+$/, '')}`;
}

/** The families rendered from snapshots, with their help text, in exposition order. */
const SNAPSHOT_FAMILIES = {
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

export const NETWORK_FAMILIES = [
  'spotwatch_network_deposit_enabled',
  'spotwatch_network_withdraw_enabled',
  'spotwatch_network_withdraw_fee',
  'spotwatch_network_withdraw_min',
  'spotwatch_network_desc_present',
] as const satisfies readonly FamilyName[];

export const TICKER_FAMILIES = [
  'spotwatch_ticker_last_price',
  'spotwatch_ticker_price_change_ratio',
  'spotwatch_ticker_spread_ratio',
  'spotwatch_ticker_quote_volume',
  'spotwatch_ticker_close_timestamp_seconds',
] as const satisfies readonly FamilyName[];

/** Appends each record's lines (one string per family of its part, in order) to its family's list. */
function collect<T extends object>(families: readonly FamilyName[], records: Iterable<T>, include: (r: T) => boolean, render: (r: T) => string[]): FamilyLines {
  const parts: string[][] = families.map(() => []);
  for (const r of records) {
    if (!include(r)) continue;
    const lines = render(r);
    for (let i = 0; i < parts.length; i++) if (lines[i] !== '') (parts[i] as string[]).push(lines[i] as string);
  }
  const out: FamilyLines = {};
  families.forEach((name, i) => {
    out[name] = (parts[i] as string[]).join('');
  });
  return out;
}

/**
 * A filter on coin, network and symbol names, to bound cardinality. A network is asked with its
 * exchange, so that a filter may also test the network's canonical chain (metrics.include.chain).
 */
export type SeriesFilter = (label: 'coin' | 'network' | 'symbol', value: string, exchange?: string) => boolean;

export function renderNetworks(snapshot: Snapshot, keep: SeriesFilter): FamilyLines {
  const ex = esc(snapshot.exchange);
  return collect(NETWORK_FAMILIES, snapshot.coins.values(), (c) => keep('coin', c.coin), (c) => {
    // Pieces joined once per family (a string built by `+` is a tree of its pieces, two to three times its size).
    const parts: string[][] = [[], [], [], [], []];
    const [deposit, withdraw, fee, min, desc] = parts as [string[], string[], string[], string[], string[]];
    const coin = esc(c.coin);
    for (const n of c.networkList) {
      if (!keep('network', n.network, snapshot.exchange)) continue;
      const l = `{exchange="${ex}",coin="${coin}",network="${esc(n.network)}"}`;
      deposit.push('spotwatch_network_deposit_enabled', l, n.depositEnable ? ' 1\n' : ' 0\n');
      withdraw.push('spotwatch_network_withdraw_enabled', l, n.withdrawEnable ? ' 1\n' : ' 0\n');
      const f = decimalToNumber(n.withdrawFee);
      if (f !== undefined) fee.push('spotwatch_network_withdraw_fee', l, ' ', sampleValue(n.withdrawFee as string, f), '\n');
      const m = decimalToNumber(n.withdrawMin);
      if (m !== undefined) min.push('spotwatch_network_withdraw_min', l, ' ', sampleValue(n.withdrawMin as string, m), '\n');
      const dl = l.slice(0, -1);
      desc.push('spotwatch_network_desc_present', dl, blankToNull(n.depositDesc) === null ? ',direction="deposit"} 0\n' : ',direction="deposit"} 1\n');
      desc.push('spotwatch_network_desc_present', dl, blankToNull(n.withdrawDesc) === null ? ',direction="withdraw"} 0\n' : ',direction="withdraw"} 1\n');
    }
    return parts.map((p) => p.join(''));
  });
}

export function renderTickers(snapshot: Snapshot, keep: SeriesFilter): FamilyLines {
  const ex = esc(snapshot.exchange);
  return collect(TICKER_FAMILIES, snapshot.tickers.values(), (t) => keep('symbol', t.symbol), (t) => {
    // Each line joined from its pieces, flat (see renderNetworks).
    const lines = ['', '', '', '', ''];
    const l = `{exchange="${ex}",symbol="${esc(t.symbol)}"} `;
    const last = decimalToNumber(t.lastPrice);
    if (last !== undefined) lines[0] = ['spotwatch_ticker_last_price', l, sampleValue(t.lastPrice, last), '\n'].join('');
    const change = changeRatio(last, decimalToNumber(t.openPrice));
    if (change !== undefined) lines[1] = ['spotwatch_ticker_price_change_ratio', l, num(change), '\n'].join('');
    const spread = spreadRatio(decimalToNumber(t.bidPrice), decimalToNumber(t.askPrice));
    if (spread !== undefined) lines[2] = ['spotwatch_ticker_spread_ratio', l, num(spread), '\n'].join('');
    const qv = decimalToNumber(t.quoteVolume);
    if (qv !== undefined) lines[3] = ['spotwatch_ticker_quote_volume', l, sampleValue(t.quoteVolume as string, qv), '\n'].join('');
    if (t.closeTime !== null) lines[4] = ['spotwatch_ticker_close_timestamp_seconds', l, seconds(t.closeTime), '\n'].join('');
    return lines;
  });
}

/** The HELP and TYPE lines that open a family. */
export function familyHeader(name: FamilyName): string {
  return `# HELP ${name} ${SNAPSHOT_FAMILIES[name]}\n# TYPE ${name} gauge\n`;
}
