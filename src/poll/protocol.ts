/**
 * What crosses between the main thread (HTTP surface, delivery) and the poll thread (fetch,
 * decode, step, the state's writes): messages, structured-cloned, in order. The poll thread
 * reports what each step decided, after its write; the main thread commands, and asks for what
 * it shows (snapshot parts, the exchanges' metric families), which the poll thread owns.
 */
import type { Alert } from '../alerts/alert';
import type { NoticeLists } from '../notices/book-json';
import type { AnnouncementKind } from '../notices/model';
import type { Change } from '../snapshot/changes';
import type { CoinRecord, Endpoint, RecordIssue, TickerRecord } from '../snapshot/model';

/** One poll of one endpoint, as the health, the poll metrics and the logs need it. */
export interface PollReport {
  exchange: string;
  endpoint: Endpoint;
  outcome: 'accepted' | 'held' | 'empty' | 'failed';
  /** When its answer (or failure) arrived, and how long the poll took from when it was sent. */
  at: number;
  durationMs: number;
  bytes: number;
  /** Records set aside (malformed, or sent twice with different values), and the first few. */
  issues: number;
  firstIssues: RecordIssue[];
  /** A failed poll's kind (exchange/errors.ts) and message. */
  kind?: string;
  error?: string;
  /** What the exchange's snapshot holds after it. */
  coins: number;
  networks: number;
  tickers: number;
  /** An endpoint of the exchange has failed DOWN_AFTER_FAILURES polls in a row (ExchangeDown). */
  down: boolean;
  /** Request weight spent within the exchange's current window. */
  weightUsed: number;
  /** The version of each part of the snapshot (a new one whenever a part changed). */
  versions: Record<Endpoint, number>;
}

/** A part of a snapshot as the main thread holds it: what changed since the version it had. */
export interface PartDelta {
  exchange: string;
  part: Endpoint;
  version: number;
  /** When the part was taken (coinsAt / tickersAt). */
  at: number | null;
  /** Records new or changed (all of them when `whole`), and keys gone. */
  changed: (CoinRecord | TickerRecord)[];
  gone: string[];
  /** `changed` is the whole part (the main thread had none of it, or another exchange of that name). */
  whole: boolean;
  /** Keys set aside without a value yet (Snapshot.unknownCoins / unknownSymbols). */
  unknown: string[] | undefined;
}

/** The metric families of one part of one exchange: one text per family, in the family order of metrics/render.ts. */
export interface FamilyTexts {
  exchange: string;
  part: Endpoint;
  version: number;
  families: string[];
}

export type Question =
  /** The parts whose version is newer than `have` (per exchange and part), as deltas. */
  | { q: 'parts'; have: Record<string, Partial<Record<Endpoint, number>>> }
  /** The metric families of the parts whose version is newer than `have`, and the exchanges watched. */
  | { q: 'families'; have: Record<string, Partial<Record<Endpoint, number>>> };

export interface Answers {
  parts: { parts: PartDelta[] };
  families: { exchanges: string[]; texts: FamilyTexts[] };
}

/** Poll thread -> main thread. */
export type Report =
  /** A configuration is in force: every exchange watched (or failed to start, logged). */
  | { t: 'ready' }
  /** A configuration could not be put in force (the rules file could not be read). */
  | { t: 'failed'; error: string }
  /** Alerts now active (new or changed) and alerts no longer active (fingerprints): the copies of the active alerts follow. */
  | { t: 'alerts'; set: Alert[]; removed: string[] }
  /** An exchange's changes, stored. */
  | { t: 'changes'; exchange: string; changes: Change[] }
  | { t: 'polled'; poll: PollReport }
  /** A write of the state: the store's error when it refused, and change rows dropped while it refuses. */
  | { t: 'wrote'; error: string | undefined; dropped: number }
  /** A notice read that failed (notices.md section 6: counted, nothing else changes). */
  | { t: 'notice-failed'; exchange: string; source: string; kind: string }
  /**
   * An exchange's notice book, whole: after a step that changed it, and every exchange's at each
   * `ready` (the main thread's copy starts from the books the store kept). `firstRead`: how many
   * announcements of each kind that step read for the first time (the metric counts them).
   */
  | { t: 'notices'; exchange: string; lists: NoticeLists; firstRead: Partial<Record<AnnouncementKind, number>> };

/** Poll thread -> delivery thread. */
export type Tell =
  /** As the main thread gets it: the delivery thread's copy of the active alerts (the sources of inhibition). */
  | { t: 'alerts'; set: Alert[]; removed: string[] }
  /**
   * Alerts to tell, in decision order (their state is written); a step's are told together, at
   * its `last` message. An alert the step's `alerts` message just set is named by its
   * fingerprint (a storm's 8,000 firing alerts are not sent twice). `pending`: the id of each
   * one's pending notification, written with the step's state (null: none, or the write failed).
   */
  | { t: 'tell'; alerts: (Alert | string)[]; pending: (number | null)[]; last: boolean };

/** Main thread -> poll thread. */
export type Command =
  /** The configuration to watch by (the first one starts; later ones are reloads). */
  { t: 'configure'; config: unknown; env: Record<string, string | undefined> };

/** Items per message: a storm's 8,000 alerts cloned in one message held the receiving thread 20-40 ms as it read them; 500 cost it 3-8 ms each. */
export const PER_MESSAGE = 500;
