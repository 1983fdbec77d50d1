/**
 * The recording's format (the README's "Replay" section describes it for people): segment
 * files of gzip'd records, each record one line of JSON, an answer's bodies following its line
 * as the bytes they came in (`bytes` of them, then a newline), so that a 4 MB answer is neither
 * escaped nor copied on its way to the disk, and is read again byte for byte.
 *
 * A segment begins with a `state` record: the state of the poll path when it began (at a
 * start, what the store gave back; later, the state reached), so that a segment can be
 * replayed on its own once the ones before it are deleted. Then, in the order the engine
 * gave them to `step`, one record per input: `answer`, `failure`, `written`, `drop`, `notices`; and
 * `reload` where the configuration was reloaded. A segment ended as it should be ends with an
 * `end` record; one without it was cut short (the daemon was killed, or writes it still).
 */
import { z } from 'zod';
import { activeAlerts, alertsOf } from '../../alerts/lifecycle';
import type { Alert } from '../../alerts/alert';
import type { WatchAssembly } from '../../exchange/watch-list';
import type { SymbolHistory } from '../../rules/ticker-samples';
import { EMPTY_BOOK, type Flap, type FlapBook } from '../../rules/flapping';
import { EMPTY_NOTICES } from '../../notices/book';
import { bookFromJson, bookToJson, NOTICE_BOOK_JSON, NOTICE_READ_JSON, type NoticeBookJson } from '../../notices/book-json';
import type { NoticeRead } from '../../notices/model';
import type { Suspect } from '../../snapshot/guard';
import type { CoinRecord, Endpoint, Snapshot, TickerRecord } from '../../snapshot/model';
import { ROW_SCHEMAS } from '../../storage/rows';
import type { ExchangeState, PollState, StepSettings } from '../state';

export const FORMAT_VERSION = 1;

/** An exchange watched, and the dialect its answers are read with. */
export interface WatchedExchange {
  name: string;
  dialect: string;
}

/** One exchange's part of the poll path's state (ExchangeState, its snapshot's maps as lists). */
export interface ExchangeCheckpoint {
  name: string;
  coinsAt: number | null;
  tickersAt: number | null;
  coins: CoinRecord[];
  tickers: TickerRecord[];
  unknownCoins?: string[];
  unknownSymbols?: string[];
  samples: [string, SymbolHistory][];
  suspect: Partial<Record<Endpoint, Suspect>>;
  failures: Record<Endpoint, number>;
  storeError: string | null;
  savedAt: { tickers: number | null; samples: number | null };
  /** The flap books (absent in a recording made before flap detection: empty books). */
  flaps?: Record<Endpoint, FlapBookRecord>;
  /** The notice book (absent in a recording made before notices: empty). */
  notices?: NoticeBookJson;
}

/** A flap book as a list (rules/flapping.ts). */
export interface FlapBookRecord {
  poll: number;
  things: [string, Flap][];
}

/**
 * A segment's first record. `run` names one start of the daemon; `continues`: the segment
 * follows the one before it in the same run with nothing lost between (no failed write, no
 * answer that could not be recorded), so a replay that read that one goes on from the state it
 * reached. `watched`: the exchanges of the configuration in force.
 */
export interface StateRecord {
  t: 'state';
  v: number;
  at: number;
  run: string;
  continues: boolean;
  watched: WatchedExchange[];
  exchanges: ExchangeCheckpoint[];
  alerts: Alert[];
}

/** An answer's body: its request's path and its length (the bytes follow), or `same`, the bytes of this path's last body in the segment. */
export type BodyRef = { path: string; bytes: number } | { path: string; same: true };

export interface AnswerRecord {
  t: 'answer';
  at: number;
  exchange: string;
  endpoint: Endpoint;
  dialect: string;
  answers: BodyRef[];
  watch?: WatchAssembly;
}

export interface FailureRecord {
  t: 'failure';
  at: number;
  exchange: string;
  endpoint: Endpoint;
  /** The failure's kind (exchange/errors.ts), for people; step reads the message. */
  kind?: string;
  error: string;
}

export interface WrittenRecord {
  t: 'written';
  at: number;
  exchange: string;
  error: string | null;
}

export interface DropRecord {
  t: 'drop';
  at: number;
  exchange: string;
}

/** One read of a notice source, as step took it (decoded: a notice source's answers are small, and its decoders are tested on their own). */
export interface NoticesRecord {
  t: 'notices';
  at: number;
  exchange: string;
  source: string;
  read: NoticeRead;
  vanished: 'judge' | 'ask';
}

/** The configuration was reloaded (a replay judges every rule again at the next answers, as the daemon did). */
export interface ReloadRecord {
  t: 'reload';
  at: number;
  watched: WatchedExchange[];
}

/** A segment's last record, when it was ended as it should be (a segment without it was cut short). */
export interface EndRecord {
  t: 'end';
  at: number;
}

export type Recorded = StateRecord | AnswerRecord | FailureRecord | WrittenRecord | DropRecord | NoticesRecord | ReloadRecord | EndRecord;

// ---------------------------------------------------------------------------------------------
// The state, both ways

/** The state as a segment's first record holds it. */
export function checkpointOf(state: PollState): Pick<StateRecord, 'exchanges' | 'alerts'> {
  const exchanges = [...state.exchanges].map(([name, ex]): ExchangeCheckpoint => {
    const s = ex.snapshot;
    return {
      name,
      coinsAt: s.coinsAt,
      tickersAt: s.tickersAt,
      coins: [...s.coins.values()],
      tickers: [...s.tickers.values()],
      ...(s.unknownCoins !== undefined && { unknownCoins: [...s.unknownCoins] }),
      ...(s.unknownSymbols !== undefined && { unknownSymbols: [...s.unknownSymbols] }),
      samples: [...ex.samples],
      suspect: ex.suspect,
      failures: ex.failures,
      storeError: ex.storeError ?? null,
      savedAt: ex.savedAt,
      flaps: { coins: bookRecord(ex.flaps.coins), tickers: bookRecord(ex.flaps.tickers) },
      notices: bookToJson(ex.notices),
    };
  });
  return { exchanges, alerts: [...alertsOf(state.alerts)] };
}

/**
 * The state a segment began with, under `settings` (the replay's own). Every rule is judged
 * again at the next answers (`judged` false), as after a reload: the settings may not be the
 * ones the daemon had.
 */
export function stateFrom(record: StateRecord, settings: StepSettings): PollState {
  const exchanges = new Map<string, ExchangeState>();
  for (const c of record.exchanges) {
    const snapshot: Snapshot = {
      exchange: c.name,
      coinsAt: c.coinsAt,
      tickersAt: c.tickersAt,
      coins: new Map(c.coins.map((r) => [r.coin, r])),
      tickers: new Map(c.tickers.map((r) => [r.symbol, r])),
      ...(c.unknownCoins !== undefined && { unknownCoins: new Set(c.unknownCoins) }),
      ...(c.unknownSymbols !== undefined && { unknownSymbols: new Set(c.unknownSymbols) }),
    };
    exchanges.set(c.name, {
      snapshot,
      suspect: c.suspect,
      failures: c.failures,
      samples: new Map(c.samples),
      storeError: c.storeError ?? undefined,
      savedAt: c.savedAt,
      judged: { coins: false, tickers: false },
      flaps: { coins: bookOf(c.flaps?.coins), tickers: bookOf(c.flaps?.tickers) },
      notices: c.notices === undefined ? EMPTY_NOTICES : bookFromJson(c.notices),
    });
  }
  return { settings, exchanges, alerts: activeAlerts(record.alerts) };
}

function bookRecord(book: FlapBook): FlapBookRecord {
  return { poll: book.poll, things: [...book.things] };
}

function bookOf(record: FlapBookRecord | undefined): FlapBook {
  return record === undefined ? EMPTY_BOOK : { poll: record.poll, things: new Map(record.things) };
}

// ---------------------------------------------------------------------------------------------
// Reading a record's line

const time = z.number().int();
const endpoint = z.enum(['coins', 'tickers']);
const name = z.string().min(1);
const watched = z.array(z.object({ name, dialect: name }));
const suspect = z.object({ since: time, polls: z.number().int(), before: z.string(), after: z.string() });

const flapBook = z.object({
  poll: z.number().int().nonnegative(),
  things: z.array(z.tuple([z.string(), z.object({ where: z.record(z.string()), changedAt: z.array(z.number().int()), flapping: z.boolean() })])),
});

const exchangeCheckpoint = z.object({
  name,
  coinsAt: time.nullable(),
  tickersAt: time.nullable(),
  coins: ROW_SCHEMAS.coins,
  tickers: ROW_SCHEMAS.tickers,
  unknownCoins: z.array(z.string()).optional(),
  unknownSymbols: z.array(z.string()).optional(),
  samples: ROW_SCHEMAS.history,
  suspect: z.object({ coins: suspect.optional(), tickers: suspect.optional() }),
  failures: z.object({ coins: z.number().int().nonnegative(), tickers: z.number().int().nonnegative() }),
  storeError: z.string().nullable(),
  savedAt: z.object({ tickers: time.nullable(), samples: time.nullable() }),
  flaps: z.object({ coins: flapBook, tickers: flapBook }).optional(),
  notices: NOTICE_BOOK_JSON.optional(),
});

const bodyRef = z.union([
  z.object({ path: z.string(), bytes: z.number().int().nonnegative() }),
  z.object({ path: z.string(), same: z.literal(true) }),
]);

const watchAssembly = z.discriminatedUnion('how', [
  z.object({ how: z.literal('parts'), symbols: z.array(z.string()), refused: z.array(z.string()), reorder: z.boolean() }),
  z.object({ how: z.literal('all'), symbols: z.array(z.string()) }),
]);

const RECORD = z.discriminatedUnion('t', [
  z.object({
    t: z.literal('state'),
    v: z.literal(FORMAT_VERSION),
    at: time,
    run: z.string(),
    continues: z.boolean(),
    watched,
    exchanges: z.array(exchangeCheckpoint),
    alerts: z.array(ROW_SCHEMAS.alert),
  }),
  z.object({ t: z.literal('answer'), at: time, exchange: name, endpoint, dialect: name, answers: z.array(bodyRef), watch: watchAssembly.optional() }),
  z.object({ t: z.literal('failure'), at: time, exchange: name, endpoint, kind: z.string().optional(), error: z.string() }),
  z.object({ t: z.literal('written'), at: time, exchange: name, error: z.string().nullable() }),
  z.object({ t: z.literal('drop'), at: time, exchange: name }),
  z.object({ t: z.literal('notices'), at: time, exchange: name, source: z.string(), read: NOTICE_READ_JSON, vanished: z.enum(['judge', 'ask']) }),
  z.object({ t: z.literal('reload'), at: time, watched }),
  z.object({ t: z.literal('end'), at: time }),
]);

/** A record's line read back; undefined when it is not one (damaged, or of another version: `v`). */
export function parseRecord(line: string): Recorded | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  const parsed = RECORD.safeParse(value);
  return parsed.success ? (parsed.data satisfies Recorded) : undefined;
}
