/**
 * A dialect whose two requests are public and whose fields are mapped (mapped.ts): what the
 * four public dialects (bitget, kucoin, gate, htx) have alike, written once. Each says its
 * address, paths, weights, decimal keys, where the records are in its answers, how one record
 * maps, and how it reads an error answer.
 */
import { keysOf, NETWORK_FIELDS } from '../snapshot/fields';
import type { Endpoint, NetworkRecord } from '../snapshot/model';
import { exactDecimalJson, type BareDecimals } from './decimal';
import type { Dialect, Refusal, WeightLimit } from './dialect';
import { decodeCoinsWith, decodeTickersWith, keyIn, listIn, type CoinSource, type TickerSource } from './mapped';

export interface PublicDialect {
  readonly name: string;
  /** The exchange's public API host (the default base_url). */
  readonly baseUrl: string;
  readonly paths: Readonly<Record<Endpoint, string>>;
  /** Each request's cost, as the exchange documents its limits. */
  readonly weights: Readonly<Record<Endpoint, number>>;
  /** The documented limit per IP those weights count against (DialectDefaults.weightLimit). */
  readonly weightLimit: WeightLimit;
  /** Per answer, the keys whose bare JSON numbers are decimals (their text is kept). */
  readonly decimalKeys: Readonly<Record<Endpoint, readonly string[]>>;
  /** Per answer, how often such numbers come bare (decimal.ts BareDecimals); `rare` unless said. */
  readonly bareDecimals?: Readonly<Partial<Record<Endpoint, BareDecimals>>>;
  /** The raw coins of a parsed answer (throws Refused for an error in it, ShapeError for another shape). */
  coinList(body: unknown): unknown[];
  /** The raw tickers of a parsed answer, and its own time when it has one. */
  tickerList(body: unknown): { list: unknown[]; time: number | null };
  readonly coins: CoinSource;
  readonly tickers: TickerSource;
  /** What an error answer (not 2xx) says. */
  readRefusal(status: number, text: string): Refusal;
}

/**
 * The dialect. Its tickers request asks for every symbol (the four name one symbol per
 * request, or none): symbolsCap 0, the watch list is picked out of the answer.
 */
export function publicDialect(d: PublicDialect): Dialect {
  const json = { coins: exactDecimalJson(d.decimalKeys.coins, d.bareDecimals?.coins), tickers: exactDecimalJson(d.decimalKeys.tickers, d.bareDecimals?.tickers) };
  return {
    name: d.name,
    defaults: { baseUrl: d.baseUrl, symbolsCap: 0, weightLimit: d.weightLimit },
    requests: {
      coins: () => ({ path: d.paths.coins, weight: d.weights.coins }),
      tickers: () => ({ path: d.paths.tickers, weight: d.weights.tickers }),
    },
    decode: {
      coins: (text, previous) => decodeCoinsWith(d.coins, d.coinList(json.coins(text)), previous),
      tickers: (text, previous) => {
        const { list, time } = d.tickerList(json.tickers(text));
        return decodeTickersWith(d.tickers, list, time, previous);
      },
    },
    // No request names a symbol: no failure is about one.
    errors: { read: d.readRefusal, refusesSymbols: () => false },
  };
}

/** A coin whose networks are its list `chains`, each keyed by `chainKey` (bitget, kucoin, gate, htx); its symbol upper-cased. */
export function chainsOf(coinKey: string, chainKey: string): Pick<CoinSource, 'coin' | 'networks' | 'networkKey'> {
  return {
    coin: (o) => keyIn(o, coinKey, (t) => t.toUpperCase()),
    networks: (o) => listIn(o, 'chains'),
    networkKey: (n) => keyIn(n, chainKey),
  };
}

/**
 * The network fields no public dialect has (dialects.md section 2: `withdrawInternalMin` and
 * `contractAddressUrl` are Binance's, `depositDesc` Binance's and MEXC's, `withdrawDesc` Binance's).
 */
const NOT_SENT_PUBLICLY = { withdrawInternalMin: null, contractAddressUrl: null, depositDesc: null, withdrawDesc: null } as const;

const NETWORK_KEYS = keysOf(NETWORK_FIELDS);

/** A public dialect's network: the fields it sends, the others null, in the model's order (that of `once --json`). */
export function publicNetwork(sent: Omit<NetworkRecord, keyof typeof NOT_SENT_PUBLICLY>): NetworkRecord {
  const all: NetworkRecord = { ...sent, ...NOT_SENT_PUBLICLY };
  const out: Partial<Record<keyof NetworkRecord, unknown>> = {};
  for (const k of NETWORK_KEYS) out[k] = all[k];
  return out as NetworkRecord;
}
