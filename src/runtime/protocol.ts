/**
 * The one protocol between the main thread (HTTP) and the engine (the poll path and delivery):
 * messages, structured-cloned, in order. The main thread commands (EngineCommand) and asks
 * (EngineQuestion: the snapshot parts and metric families it shows, which the engine owns; a
 * silence of the API to store); the engine reports what it decided and how deliveries went
 * (EngineReport), each step's after its write.
 */
import type { Alert } from '../alerts/alert';
import type { NoticeLists } from '../notices/book-json';
import type { AnnouncementKind } from '../notices/model';
import type { Change } from '../snapshot/changes';
import type { Silence } from '../alerts/silence';
import type { Outcome } from '../notify/pipeline/retry-stage';
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

/** What the engine reports to the main thread of its configurations, the poll path and retention. */
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
  /** Retention deleted old changes and the outages that ended before them: the main thread's outage index reads them again. */
  | { t: 'pruned' }
  /** A notice read that failed (notices.md section 6: counted, nothing else changes). */
  | { t: 'notice-failed'; exchange: string; source: string; kind: string }
  /**
   * An exchange's notice book, whole: after a step that changed it, and every exchange's at each
   * `ready` (the main thread's copy starts from the books the store kept). `firstRead`: how many
   * announcements of each kind that step read for the first time (the metric counts them).
   */
  | { t: 'notices'; exchange: string; lists: NoticeLists; firstRead: Partial<Record<AnnouncementKind, number>> };

/** Items per message: a storm's 8,000 alerts cloned in one message held the receiving thread 20-40 ms as it read them; 500 cost it 3-8 ms each. */
export const PER_MESSAGE = 500;

/** What delivery reports to the main thread (its metrics). */
export type DeliveryReport =
  /** A delivery attempt (spotwatch_notifications_total, _failed_total, _latency_seconds). */
  | { t: 'outcome'; receiver: string; outcome: Outcome; reason?: string | undefined; latencyMs?: number | undefined }
  /** A write of the outbox refused, a held notification dropped, a bot update not answered. */
  | { t: 'counted'; what: 'store_error' } | { t: 'counted'; what: 'dropped'; receiver: string } | { t: 'counted'; what: 'ignored'; receiver: string; reason: string }
  /** Per receiver, notifications waiting (spotwatch_outbox_pending) and dead letters (spotwatch_dead_letters), when they changed. */
  | { t: 'outbox'; pending: Record<string, number>; dead: Record<string, number> };

/** The engine asks the main thread what a bot's /status and /closed read (the views' closures are the main thread's). */
export const BOT_READS = { q: 'bot' } as const;

/** Main thread -> engine: the configuration to run by (the first one starts; later ones are reloads); `externalURL` is the HTTP surface's. Answered by a `ready` or `failed` report. */
export type EngineCommand = { t: 'configure'; config: unknown; env: Record<string, string | undefined>; externalURL: string };

/** Engine -> main thread: the poll path's reports and delivery's. */
export type EngineReport = Report | DeliveryReport;

/** Main thread -> engine, answered: a silence of the API to store and put in force (its answer: `{ error }` when the store refused it). */
export type EngineQuestion = Question | { q: 'save-silence'; silence: Silence };

const DELIVERY_REPORTS: ReadonlySet<string> = new Set<DeliveryReport['t']>(['outcome', 'counted', 'outbox']);

/** Whether a report is delivery's (its metrics) rather than the poll path's. */
export function isDeliveryReport(report: EngineReport): report is DeliveryReport {
  return DELIVERY_REPORTS.has(report.t);
}
