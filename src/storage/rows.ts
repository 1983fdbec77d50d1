/**
 * The shape of every JSON body the store reads back, for every backend of the port (port.ts)
 * and the recordings, which write the same bodies. A few overwritten bytes can pass SQLite's
 * quick_check and still leave a body that is not JSON, or JSON of the wrong shape: every row is
 * parsed through one of these before it reaches the daemon, so a damaged row is set aside
 * instead of crashing the start (or, worse, feeding a wrong value to the watcher).
 */
import { z } from 'zod';
import type { Alert } from '../alerts/alert';
import type { LogEntry } from '../alerts/dedup';
import type { Silence } from '../alerts/silence';
import type { Delivery, NotifiedAlert } from '../notify/notifier';
import type { SymbolHistory } from '../rules/ticker-samples';
import { CHANGE_KINDS, type ChangeKind, type ChangeValue } from '../snapshot/changes';
import type { CoinRecord, NetworkRecord, TickerRecord } from '../snapshot/model';

const str = z.string();
const num = z.number().finite();
const labels = z.record(z.string(), z.string());

/**
 * The records that come by the thousand (networks, tickers, alerts: a storm's notification
 * carries 8,000) are checked by a plain loop over their fields: zod's own object parsing is
 * about ten times slower than JSON.parse there, and a send must not stall the event loop.
 */
type FieldKind = 'string' | 'string?' | 'number' | 'number?' | 'boolean' | 'boolean?' | 'labels';

function isLabels(v: unknown): boolean {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  for (const x of Object.values(v)) if (typeof x !== 'string') return false;
  return true;
}

function fieldOk(kind: FieldKind, v: unknown): boolean {
  switch (kind) {
    case 'string':
      return typeof v === 'string';
    case 'string?':
      return v === null || typeof v === 'string';
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'number?':
      return v === null || (typeof v === 'number' && Number.isFinite(v));
    case 'boolean':
      return typeof v === 'boolean';
    case 'boolean?':
      return v === null || typeof v === 'boolean';
    case 'labels':
      return isLabels(v);
  }
}

type Guard<T> = (v: unknown) => v is T;

/** A check of a flat record, field by field (extra fields are left as they are). */
function record<T>(fields: Record<keyof T & string, FieldKind | Guard<unknown>>, extra: (v: Record<string, unknown>) => boolean = () => true): Guard<T> {
  const entries = Object.entries(fields) as [string, FieldKind | Guard<unknown>][];
  return (v): v is T => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
    const o = v as Record<string, unknown>;
    for (const [k, kind] of entries) if (typeof kind === 'function' ? !kind(o[k]) : !fieldOk(kind, o[k])) return false;
    return extra(o);
  };
}

function listOf<T>(guard: Guard<T>): Guard<T[]> {
  return (v): v is T[] => Array.isArray(v) && v.every(guard);
}

const NetworkRow = record<NetworkRecord>({
  network: 'string',
  coin: 'string',
  name: 'string?',
  isDefault: 'boolean?',
  depositEnable: 'boolean',
  withdrawEnable: 'boolean',
  withdrawFee: 'string?',
  withdrawMin: 'string?',
  withdrawInternalMin: 'string?',
  withdrawIntegerMultiple: 'string?',
  minConfirm: 'number?',
  withdrawTag: 'boolean?',
  depositDust: 'string?',
  contractAddress: 'string?',
  contractAddressUrl: 'string?',
  depositDesc: 'string?',
  withdrawDesc: 'string?',
});

const CoinRow = record<CoinRecord>({ coin: 'string', name: 'string?', depositAllEnable: 'boolean', withdrawAllEnable: 'boolean', networkList: listOf(NetworkRow) });

const TickerRow = record<TickerRecord>({
  symbol: 'string',
  priceChange: 'string?',
  priceChangePercent: 'string?',
  lastPrice: 'string',
  bidPrice: 'string?',
  bidQty: 'string?',
  askPrice: 'string?',
  askQty: 'string?',
  openPrice: 'string?',
  highPrice: 'string?',
  lowPrice: 'string?',
  volume: 'string?',
  quoteVolume: 'string?',
  openTime: 'number?',
  closeTime: 'number?',
  count: 'number?',
});

const STATUSES = new Set(['pending', 'firing', 'resolved']);

const AlertRow = record<Alert>(
  {
    fingerprint: 'string',
    ruleId: 'string',
    entity: 'string',
    labels: 'labels',
    annotations: 'labels',
    status: 'string',
    activeAt: 'number',
    startsAt: 'number?',
    endsAt: 'number?',
    lastActiveAt: 'number',
    lastNotifiedAt: 'number?',
    value: 'number?',
    event: 'boolean',
    // Never written (storedAlert); a row is not refused for it.
    clockOffset: (v: unknown): v is undefined => v === undefined || typeof v === 'number',
  },
  (o) => STATUSES.has(o.status as string),
);

const LogEntryRow = z.object({ firing: z.array(str), resolved: z.array(str), at: num });

const NotifiedAlertRow = record<NotifiedAlert>(
  { status: 'string', labels: 'labels', annotations: 'labels', startsAt: 'string', endsAt: 'string', generatorURL: 'string', fingerprint: 'string' },
  (o) => o.status === 'firing' || o.status === 'resolved',
);

const DeliveryRow = z.object({
  notification: z.object({
    version: z.literal('4'),
    groupKey: str,
    truncatedAlerts: num,
    status: z.enum(['firing', 'resolved']),
    receiver: str,
    groupLabels: labels,
    commonLabels: labels,
    commonAnnotations: labels,
    externalURL: str,
    alerts: z.custom<NotifiedAlert[]>(listOf(NotifiedAlertRow)),
  }),
  idempotencyKey: str,
});

const SilenceRow = z.object({ id: str, matchers: z.array(z.object({ label: str, pattern: str })), startsAt: num, endsAt: num, comment: str, createdBy: str });

const HistoryRow = z.array(z.tuple([str, z.object({ samples: z.array(z.object({ at: num, price: num })), signature: str, unchangedSince: num })]));

const CHANGE_KIND_SET: ReadonlySet<unknown> = new Set(CHANGE_KINDS);

/**
 * The columns of a change row, checked without zod's per-call cost (several microseconds):
 * the history is read by the thousand rows per query.
 */
export function readChangeValue(text: unknown): ChangeValue | undefined {
  const v = jsonOf(text);
  return v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v)) ? v : undefined;
}

export function isChangeKindColumn(v: unknown): v is ChangeKind {
  return CHANGE_KIND_SET.has(v);
}

/** Checked at compile time: each schema reads into the type the daemon uses. */
export const ROW_SCHEMAS = {
  coins: z.custom<CoinRecord[]>(listOf(CoinRow)) satisfies z.ZodType<CoinRecord[]>,
  coin: z.custom<CoinRecord>(CoinRow) satisfies z.ZodType<CoinRecord>,
  /** A coins part stored one row per coin (snapshot_records): how many rows it has. */
  coinRows: z.object({ records: z.number().int().nonnegative() }).strict(),
  tickers: z.custom<TickerRecord[]>(listOf(TickerRow)) satisfies z.ZodType<TickerRecord[]>,
  alert: z.custom<Alert>(AlertRow) satisfies z.ZodType<Alert>,
  logEntry: LogEntryRow satisfies z.ZodType<LogEntry>,
  delivery: DeliveryRow satisfies z.ZodType<Delivery>,
  silence: SilenceRow satisfies z.ZodType<Silence>,
  history: HistoryRow satisfies z.ZodType<[string, SymbolHistory][]>,
};

/** A JSON body read through a schema; undefined when it is not JSON or not of that shape. */
export function parseRow<T>(schema: z.ZodType<T>, body: unknown): T | undefined {
  const value = jsonOf(body);
  if (value === undefined) return undefined;
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** The value of a JSON column; undefined when it is not a string of JSON (JSON itself has no undefined). */
function jsonOf(text: unknown): unknown {
  if (typeof text !== 'string') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
