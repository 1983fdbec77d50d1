/**
 * Mentions: which coins, symbols and chains a notice's title names (notices.md section 2,
 * contract). Pure: the title and the exchange's lists in, the mentions out.
 *
 * From the title, in this order, each candidate kept only if the exchange lists it:
 * 1. tickers in parentheses: `Rari Governance Token (RGT)`, `Worldcoin(WLD)`, several in one
 *    title; never a date or words (`(2025-06-25)`, `(in batches of accounts)`): a ticker is upper
 *    case letters and digits with at least one letter;
 * 2. pairs (`ALGO/RUB`, `BTC-USDT`, `SOL_USDT`) and run-together symbols (`OLUSDT`) that the
 *    exchange's symbol list has: the symbol, and its base coin when the coin list has it, never
 *    the quote coin. The base of a run-together symbol is what is left of it before the longest
 *    listed coin it ends with (`TUSDT` -> `T` + `USDT`, not `TUSD` + `T`), when that is a listed
 *    coin too;
 * 3. bare lists after a list / delist / suspend word (`Will Delist ALPHA, BSW, KMD, LEVER, LTO on
 *    2025-07-04`, `Delisting of L3,VIC`, `Listing:`), past the words that may stand between
 *    (`Will Suspend Deposits and Withdrawals of ETH`), items separated by `,`, `&` or `and`;
 * 4. chains: a name of the canonical chain table as whole words, any case (chain-names.ts), kept
 *    when one of the exchange's networks is on that chain: `Polygon (POL) Network Upgrade` ->
 *    chain `polygon` (and coin `POL` by rule 1).
 *
 * Incidental mentions (`incidental: true`, off by default, as notices.md asks): a listed coin's
 * ticker standing anywhere else in the title as a whole upper-case word (`400,000 USDT Prize Pool`,
 * `Airdrop for MUBARAK, TST ... Holders`, `Stake BTC to mine SAUCE`). Even then a pair's quote
 * coin is not one (`ALGO/RUB` names no RUB): a quote is what most pairs share.
 *
 * Nothing is guessed beyond the title: a title naming no coin names none. Each list is in the
 * order of first appearance in the title, each entry once. A title is read up to TITLE_READ
 * characters.
 */
import type { CoinRecord, TickerRecord } from '../snapshot/model';
import { chainNames } from './chain-names';

/** What the exchange lists, as mentions are checked against it. */
export interface MentionLists {
  /** Its coins (the coin list's keys). */
  readonly coins: ReadonlySet<string>;
  /** Its symbols, as the model keys them (`BTCUSDT`). */
  readonly symbols: ReadonlySet<string>;
  /** The canonical chains its networks are on. */
  readonly chains: ReadonlySet<string>;
}

export interface MentionOptions {
  /** Also a listed coin's ticker anywhere in the title (see above). Default false. */
  readonly incidental?: boolean;
}

export interface Mentions {
  readonly coins: readonly string[];
  readonly symbols: readonly string[];
  readonly chains: readonly string[];
}

/** The lists of a snapshot's coins and tickers; `chainOf` gives a network id's canonical chain. */
export function mentionLists(coins: ReadonlyMap<string, CoinRecord>, tickers: ReadonlyMap<string, TickerRecord>, chainOf: (network: string) => string | null): MentionLists {
  const chains = new Set<string>();
  for (const coin of coins.values()) {
    for (const n of coin.networkList) {
      const chain = chainOf(n.network);
      if (chain !== null) chains.add(chain);
    }
  }
  return { coins: new Set(coins.keys()), symbols: new Set(tickers.keys()), chains };
}

/**
 * A ticker: upper-case letters and digits, at least one letter (`L3`, `1INCH`, not `2025`); the
 * letter is asked by a lookahead so that no run of capitals can be split two ways (backtracking).
 */
const TICKER = '(?=[0-9]*[A-Z])[A-Z0-9]+';
/**
 * How much of a title is read: real titles are a line (under 200 characters); an exchange's text
 * must never hold the poll, however long.
 */
export const TITLE_READ = 1000;
/** Neither a letter nor a digit may touch a word on either side. */
const BEFORE = '(?<![A-Za-z0-9])';
const AFTER = '(?![A-Za-z0-9])';

const IN_PARENTHESES = new RegExp(`\\(\\s*(${TICKER})\\s*\\)`, 'g');
const PAIR = new RegExp(`${BEFORE}(${TICKER})[/_-](${TICKER})${AFTER}`, 'g');
const WORD = new RegExp(`${BEFORE}${TICKER}${AFTER}`, 'g');
/** A list / delist / suspend word, whole. */
const LIST_WORD = /(?<![A-Za-z])(?:de)?list(?:s|ed|ing)?(?![A-Za-z])|(?<![A-Za-z])suspen(?:d|ds|ded|ding|sion)(?![A-Za-z])/gi;
/** What may stand between a list word and its list (`Delisting of`, `Suspend Deposits and Withdrawals of`, `Listing:`). */
const BETWEEN = /^(?:[\s:：,-]+|(?:of|the|for|and|deposits?|withdrawals?|trading|spot|margin|tokens?|pairs?)(?![A-Za-z0-9]))*/i;
/** One item of a bare list, not the first half of a pair. */
const LIST_ITEM = new RegExp(`^(${TICKER})(?![A-Za-z0-9/_-])`);
/** Between two items of a bare list. */
const LIST_SEPARATOR = /^\s*(?:,\s*(?:and\s+|&\s*)?|&\s*|and\s+)/i;

/** Every chain name as one pattern, longest first; an ordinary word only where the title says it is a chain. */
const CHAIN_NAMES = chainNames();
const CHAIN_OF_NAME: ReadonlyMap<string, string> = new Map(CHAIN_NAMES.map((n) => [n.name.toLowerCase(), n.chain]));
const SAYS_CHAIN = '(?=\\s+(?:network|chain|mainnet|blockchain)(?![A-Za-z0-9])|\\s*\\(\\s*[A-Za-z0-9]+\\s*\\))';
const CHAIN_NAME = new RegExp(
  `${BEFORE}(?:${CHAIN_NAMES.map((n) => `${escapeRegExp(n.name)}${AFTER}${n.qualified ? SAYS_CHAIN : ''}`).join('|')})`,
  'gi',
);

/** Which coins, symbols and chains `title` names that the exchange lists (notices.md section 2). */
export function mentions(fullTitle: string, lists: MentionLists, options: MentionOptions = {}): Mentions {
  const title = fullTitle.slice(0, TITLE_READ);
  const coins = new Found();
  const symbols = new Found();
  const chains = new Found();
  const coin = (at: number, ticker: string): void => {
    if (lists.coins.has(ticker)) coins.add(at, ticker);
  };

  // 1. Tickers in parentheses.
  for (const m of title.matchAll(IN_PARENTHESES)) coin(m.index, m[1] as string);

  // 2. Pairs, and run-together symbols; the spans of pair-shaped text are never coins of their own.
  const pairSpans: (readonly [number, number])[] = [];
  for (const m of title.matchAll(PAIR)) {
    pairSpans.push([m.index, m.index + m[0].length]);
    const [base, quote] = [m[1] as string, m[2] as string];
    if (!lists.symbols.has(base + quote)) continue;
    symbols.add(m.index, base + quote);
    coin(m.index, base);
  }
  const inPair = (at: number): boolean => pairSpans.some(([from, to]) => at >= from && at < to);
  for (const m of title.matchAll(WORD)) {
    if (inPair(m.index) || !lists.symbols.has(m[0])) continue;
    symbols.add(m.index, m[0]);
    const base = baseOf(m[0], lists.coins);
    if (base !== null) coins.add(m.index, base);
  }

  // 3. Bare lists after list / delist / suspend words.
  for (const m of title.matchAll(LIST_WORD)) {
    let at = m.index + m[0].length;
    at += (BETWEEN.exec(title.slice(at)) as RegExpExecArray)[0].length;
    for (;;) {
      const item = LIST_ITEM.exec(title.slice(at));
      if (item === null) break;
      coin(at, item[1] as string);
      at += item[0].length;
      const separator = LIST_SEPARATOR.exec(title.slice(at));
      if (separator === null) break;
      at += separator[0].length;
    }
  }

  // 4. Chains named as whole words.
  for (const m of title.matchAll(CHAIN_NAME)) {
    const chain = CHAIN_OF_NAME.get(m[0].toLowerCase());
    if (chain !== undefined && lists.chains.has(chain)) chains.add(m.index, chain);
  }

  if (options.incidental === true) for (const m of title.matchAll(WORD)) if (!inPair(m.index)) coin(m.index, m[0]);

  return { coins: coins.list(), symbols: symbols.list(), chains: chains.list() };
}

/** The base coin of a run-together symbol: before the longest listed coin it ends with, if listed too. */
function baseOf(symbol: string, coins: ReadonlySet<string>): string | null {
  for (let cut = 1; cut < symbol.length; cut++) {
    const base = symbol.slice(0, cut);
    if (coins.has(symbol.slice(cut)) && coins.has(base)) return base;
  }
  return null;
}

/** Values found at positions of the title: listed by first position, each once. */
class Found {
  private readonly first = new Map<string, number>();

  add(at: number, value: string): void {
    const had = this.first.get(value);
    if (had === undefined || at < had) this.first.set(value, at);
  }

  list(): string[] {
    return [...this.first].sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1)).map(([value]) => value);
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
}
