/**
 * spot-v3's answers into the model: the answer's text parsed with its decimals kept exact, the
 * list found inside it (or the exchange's refusal), and each record read and compared by its
 * field list (snapshot/fields.ts), one record at a time (exchange/decode-list.ts). The spec's
 * field names are the model's own, so the model's field lists are this dialect's mapping.
 */
import { UPSTREAM_TEXT_MAX, upstreamText } from '../../../lib/upstream-text';
import { COIN_FIELDS, fieldsOf, NETWORK_FIELDS, TICKER_FIELDS, type Absent, type FieldSpec } from '../../../snapshot/fields';
import { sameCoin, sameNetwork, sameTicker } from '../../../snapshot/merge';
import type { CoinRecord, Endpoint, NetworkRecord, RecordIssue, TickerRecord } from '../../../snapshot/model';
import { exactDecimalJson } from '../../decimal-text';
import { decodeList, type ListReader } from '../../decode-list';
import { Refused, type Refusal } from '../../dialect';
import { KeyedRecords } from '../../duplicates';
import type { ExchangeError } from '../../errors';
import { bool, dec, FieldError, int, isObject, keyOf, reason, requiredBool, requiredDec, requiredStr, shapeOf, ShapeError, str, type Json, type Parsed } from '../../read';
import { errorJson, refusalOf } from '../../refusal';
import { DECIMAL_KEYS, NETWORK_DECIMAL_KEYS, TICKER_DECIMAL_KEYS } from './wire';

/*
 * The spec's answers as JSON, decimals kept as their exact text: `withdrawIntegerMultiple` is a
 * JSON number that may use exponent notation (`1E-8`), and a deployment may send any decimal
 * bare. The decimal keys are those of the field lists (wire.ts).
 */

/**
 * Per answer, only its own keys; `any`: both. The coin list always has a bare number under a
 * decimal key (`withdrawIntegerMultiple`, spec section 2.2): the pre-pass at once; the spec's
 * tickers send every decimal as a string.
 */
const JSON_OF = { coins: exactDecimalJson(NETWORK_DECIMAL_KEYS, 'usual'), tickers: exactDecimalJson(TICKER_DECIMAL_KEYS), any: exactDecimalJson(DECIMAL_KEYS) };

/** JSON.parse, with the numbers under the answer's decimal keys turned into strings holding their exact text. */
export function parseJsonKeepingDecimals(text: string, answer: Endpoint | 'any' = 'any'): unknown {
  return JSON_OF[answer](text);
}

/*
 * The shape of a spot-v3 answer around its records, and of its error answers (DESIGN.md
 * section 3: error bodies are `{"code", "msg"}`, `code` a number or a string).
 */

/** Codes of an envelope that says "success" (`{"code":"200","msg":"success","data":[...]}`): without its list, a wrong shape, not a refusal. */
const SUCCESS_CODES: ReadonlySet<string> = new Set(['0', '200', '00000', '200000']);

/** The list inside an answer: the array itself, or a `data` array of a `{code, msg, data}` envelope. */
export function listOf(body: unknown, what: string): unknown[] {
  if (Array.isArray(body)) return body;
  if (isObject(body) && Array.isArray(body.data)) return body.data;
  // An error sent with a 2xx status (dialects.md rule 8): the exchange refusing, with its own code and message.
  if (isObject(body) && 'code' in body && 'msg' in body && !SUCCESS_CODES.has(String(body.code))) throw new Refused(refusalOfBody(body));
  if (isObject(body) && 'code' in body) throw new ShapeError(`${what}: expected a list, got an error envelope`);
  throw new ShapeError(`${what}: expected a list, got ${shapeOf(body)}`);
}

/**
 * An error answer: the `{"code","msg"}` of its body, when it has one (`msg` cut short and
 * stripped of control characters); 429 asks for a pause, 418 is a ban (spec section 8 leaves
 * them unsaid; these are what deployments of the interface send, with Retry-After).
 */
export function readRefusal(status: number, text: string): Refusal {
  const out = refusalOfBody(errorJson(text));
  if (status === 429) out.pause = 'rate_limited';
  else if (status === 418) out.pause = 'banned';
  return out;
}

/**
 * Codes that say "too many requests", whatever the HTTP status they come with: `-1003` is the
 * reference exchange's (DESIGN.md section 5: "budget exceeded ... code -1003") and that of the
 * deployments of the interface, which answer it with 429, 418, 400 or even 200.
 */
const RATE_LIMIT_CODES: ReadonlySet<string> = new Set(['-1003']);

/** The `{"code","msg"}` of an error body; a rate-limit code asks for a pause. */
function refusalOfBody(body: unknown): Refusal {
  const out = refusalOf(body, ['code'], ['msg']);
  if (out.code !== undefined && RATE_LIMIT_CODES.has(out.code)) out.pause = 'rate_limited';
  return out;
}

/**
 * Any 4xx to a `symbols=` request may be about a symbol it names: deployments say so in
 * different ways (`-1121` "Invalid symbol", `-2007` "Symbol does not exist", a 404, a 400
 * without a code), so the list is narrowed down whatever the code.
 */
export function refusesSymbols(error: ExchangeError): boolean {
  return error.kind === 'http_4xx';
}

/*
 * How spot-v3 reads a record, and when a raw record is exactly what a previous record holds:
 * each model field from the wire field of the same name, by the field's type in its field list
 * (snapshot/fields.ts), so a field added there is read and compared here without a line of its
 * own. One reader and one comparer per field, made once; a record is read (or compared) by a
 * loop over them (measured at 4,000 coins: 5.8 ms to read the coin list's records and 2.7 ms
 * the tickers', against 3.9 and 2.0 ms hand-written: under 2 % of a poll cycle, for code that
 * cannot disagree with the lists).
 */

/** One field of a raw record: `parent` the key of the record it belongs to, `networks` a coin's networks, read already. */
type FieldReader = (o: Json, parent: string, networks: readonly NetworkRecord[]) => unknown;

/** Whether one raw field reads as exactly what a previous record has (`previous`: that record, as its fields by name). */
type FieldSame = (o: Json, previous: Readonly<Record<string, unknown>>) => boolean;

function flagReader(key: string, absent: Absent): FieldReader {
  if (absent === 'required') return (o) => requiredBool(o, key);
  if (absent === 'false') return (o) => bool(o, key) ?? false;
  if (absent === 'null') return (o) => bool(o, key);
  // A coin's flag the exchange leaves out: true iff every one of its networks' is.
  const of = absent.every as keyof NetworkRecord;
  return (o, _parent, networks) => bool(o, key) ?? networks.every((n) => n[of] === true);
}

function fieldReader(key: string, f: FieldSpec): FieldReader {
  switch (f.type) {
    case 'key':
      return (o) => requiredStr(o, key);
    case 'parent':
      // Repeats the parent, which keys the record: checked, never taken.
      return (o, parent) => {
        str(o, key);
        return parent;
      };
    case 'text':
      return (o) => str(o, key);
    case 'flag':
      return flagReader(key, f.absent);
    case 'decimal':
      return f.absent === 'required' ? (o) => requiredDec(o, key) : (o) => dec(o, key);
    case 'int':
      return (o) => int(o, key);
    case 'networks':
      return (_o, _parent, networks) => networks;
  }
}

/**
 * The reader of a field list: the record, read field by field in the list's order (the order of
 * its keys in the model). `parent`: the key of the record it belongs to; `networks`: a coin's
 * networks, read already. Throws FieldError at the first field that fails.
 */
export function readerOf<R>(list: Record<string, FieldSpec>): (o: Json, parent: string, networks?: readonly NetworkRecord[]) => R {
  const fields = fieldsOf(list).map(([key, f]) => [key, fieldReader(key, f)] as const);
  return (o, parent, networks = []) => {
    const record: Record<string, unknown> = {};
    for (const [key, read] of fields) record[key] = read(o, parent, networks);
    return record as R;
  };
}

/*
 * A raw value against the value a previous record has: true only in the plain cases where
 * reading the raw value gives exactly the previous one (a string that is the same string, a boolean that is the
 * same boolean, null or absent for null). Anything else answers false and is read, so a record
 * taken for its previous one is always the one reading would give.
 */

/**
 * Text is read through upstreamText: a text within the cap is the same string when it is already
 * well-formed (one that is not never equals a previous, well-formed one, and is read); a longer one
 * is compared as it is cut.
 */
function sameText(v: unknown, old: unknown): boolean {
  if (typeof v !== 'string') return v == null && old === null;
  return v.length <= UPSTREAM_TEXT_MAX ? v === old : upstreamText(v) === old;
}

/** As sameText, for a decimal (an empty string reads as null, a number as its shortest text). */
function sameDecimal(v: unknown, old: unknown): boolean {
  if (typeof v === 'string') return v === '' ? old === null : v === old;
  if (typeof v === 'number') return old !== null && String(v) === old;
  return v == null && old === null;
}

function sameFlag(v: unknown, old: unknown): boolean {
  if (typeof v === 'boolean') return v === old;
  if (v === 'true' || v === 'false') return (v === 'true') === old;
  return v == null && old === null;
}

function sameInt(v: unknown, old: unknown): boolean {
  if (typeof v === 'number') return v === old;
  // int() reads at most 15 digits from a string.
  if (typeof v === 'string') return old !== null && v.length <= 15 && v === String(old);
  return v == null && old === null;
}

/** `sameNetworks(raw, previous)`: a coin's raw networkList against its previous networks. */
function fieldSame(key: string, f: FieldSpec, sameNetworks: (raw: unknown, previous: unknown) => boolean, networksKey: string): FieldSame {
  switch (f.type) {
    case 'key':
      // The record was looked up by this key: the same key is the same text (a key past the cap is read).
      return (o, p) => o[key] === p[key] && (o[key] as string).length <= UPSTREAM_TEXT_MAX;
    case 'parent':
      return (o) => typeof o[key] === 'string' || o[key] == null;
    case 'text':
      return (o, p) => sameText(o[key], p[key]);
    case 'flag': {
      const absent = f.absent;
      if (absent === 'required') return (o, p) => o[key] != null && sameFlag(o[key], p[key]);
      if (absent === 'false') return (o, p) => (o[key] == null ? p[key] === false : sameFlag(o[key], p[key]));
      if (absent === 'null') return (o, p) => sameFlag(o[key], p[key]);
      const of = absent.every as keyof NetworkRecord;
      return (o, p) => (o[key] == null ? p[key] === (p[networksKey] as readonly NetworkRecord[]).every((n) => n[of] === true) : sameFlag(o[key], p[key]));
    }
    case 'decimal':
      return (o, p) => sameDecimal(o[key], p[key]);
    case 'int':
      return (o, p) => sameInt(o[key], p[key]);
    case 'networks':
      return (o, p) => sameNetworks(o[key], p[key]);
  }
}

/**
 * The comparer of a field list: true when reading `o` would give exactly `previous` (so it can
 * be taken as it is, without reading). `sameNetworks` compares a coin's raw networkList with its
 * previous networks (for a list with a `networks` field).
 */
export function sameAsRawOf<R extends object>(list: Record<string, FieldSpec>, sameNetworks: (raw: unknown, previous: unknown) => boolean = () => false): (o: Json, previous: R) => boolean {
  const networksKey = fieldsOf(list).find(([, f]) => f.type === 'networks')?.[0] ?? '';
  const fields = fieldsOf(list).map(([key, f]) => fieldSame(key, f, sameNetworks, networksKey));
  return (o, previous) => {
    for (const same of fields) if (!same(o, previous as Readonly<Record<string, unknown>>)) return false;
    return true;
  };
}

/*
 * The coin list (`GET /api/v3/coins`, spec sections 2.1, 2.2 and 4.1) into coin records, one
 * record at a time (exchange/decode-list.ts): a malformed coin or network is set aside as a
 * RecordIssue and the rest of the answer is still used; unknown fields are ignored.
 */

const readNetwork = readerOf<NetworkRecord>(NETWORK_FIELDS);
const readCoinFields = readerOf<CoinRecord>(COIN_FIELDS);
const sameNetworkAsRaw = sameAsRawOf<NetworkRecord>(NETWORK_FIELDS);
const sameCoinAsRaw = sameAsRawOf<CoinRecord>(COIN_FIELDS, sameNetworksAsRaw);

/** A coin's raw networkList against its previous networks, network by network. */
function sameNetworksAsRaw(nets: unknown, previous: unknown): boolean {
  const networks = previous as readonly NetworkRecord[];
  if (!Array.isArray(nets) || nets.length !== networks.length) return false;
  for (let j = 0; j < nets.length; j++) {
    const n: unknown = nets[j];
    if (!isObject(n) || !sameNetworkAsRaw(n, networks[j] as NetworkRecord)) return false;
  }
  return true;
}

function readCoin(o: Json, issues: RecordIssue[]): CoinRecord {
  const coin = requiredStr(o, 'coin');
  const nets = o.networkList;
  if (!Array.isArray(nets)) throw new FieldError('networkList is not a list');
  return readCoinFields(o, coin, readNetworks(nets, coin, issues));
}

/** The networks of one coin, duplicates resolved (see exchange/duplicates.ts). */
function readNetworks(nets: readonly unknown[], coin: string, issues: RecordIssue[]): NetworkRecord[] {
  const networks = new KeyedRecords<NetworkRecord>((n) => n.network, sameNetwork);
  for (let j = 0; j < nets.length; j++) {
    const n = nets[j];
    try {
      if (!isObject(n)) throw new FieldError(`network is ${shapeOf(n)}, not an object`);
      const record = readNetwork(n, coin);
      if (networks.add(record) === 'conflict') {
        issues.push({ entity: 'network', coin, network: record.network, index: j, reason: 'network appears twice in networkList with different values' });
      }
    } catch (err) {
      const issue: RecordIssue = { entity: 'network', coin, index: j, reason: reason(err) };
      const network = keyOf(n, 'network');
      if (network !== undefined) {
        issue.network = network;
        networks.setAside(network);
      }
      issues.push(issue);
    }
  }
  return networks.taken();
}

/**
 * How a raw coin is read. A raw coin whose every field is exactly what its previous record
 * holds gives back that previous object without reading it: most of a coin list is unchanged
 * when a few coins change, and reading it all cost 19 ms against 3 ms at 4,000 coins
 * (BENCHMARKS.md, issue 21).
 */
const COINS: ListReader<CoinRecord> = {
  entity: 'coin',
  key: (item) => keyOf(item, 'coin'),
  read: (item, _key, before, parts) => (before !== undefined && sameCoinAsRaw(item, before) ? before : readCoin(item, parts)),
  same: sameCoin,
  twice: 'coin appears twice in the list with different values',
};

/** The coin list; `previous` (the coins of the last snapshot) lets an unchanged coin come back as its previous object. */
export function decodeCoins(body: unknown, previous?: ReadonlyMap<string, CoinRecord>): Parsed<CoinRecord> {
  return decodeList(COINS, listOf(body, 'coins'), previous);
}

/*
 * Tickers (`GET /api/v3/market/ticker/24hr`, spec sections 2.3 and 4.2) into ticker records,
 * one record at a time, as the coins.
 */

const readTicker = readerOf<TickerRecord>(TICKER_FIELDS);
const sameTickerAsRaw = sameAsRawOf<TickerRecord>(TICKER_FIELDS);

const TICKERS: ListReader<TickerRecord> = {
  entity: 'ticker',
  key: (item) => keyOf(item, 'symbol'),
  // An unchanged ticker, its previous object without reading it (as a coin).
  read: (item, _key, before) => (before !== undefined && sameTickerAsRaw(item, before) ? before : readTicker(item, '')),
  same: sameTicker,
  twice: 'symbol appears twice in the list with different values',
};

/** The list of a tickers answer: a single object (the `symbol=` form) is a list of one, and so is the one-element array some deployments send instead. */
function tickerList(body: unknown): unknown[] {
  return isObject(body) && typeof body.symbol === 'string' ? [body] : listOf(body, 'tickers');
}

/** Tickers; `previous` works as for decodeCoins. */
export function decodeTickers(body: unknown, previous?: ReadonlyMap<string, TickerRecord>): Parsed<TickerRecord> {
  return decodeList(TICKERS, tickerList(body), previous);
}
