/**
 * The shape of every JSON body the store reads back. A few overwritten bytes can pass SQLite's
 * quick_check and still leave a body that is not JSON, or JSON of the wrong shape: every row is
 * parsed through one of these before it reaches the daemon, so a damaged row is set aside
 * instead of crashing the start (or, worse, feeding a wrong value to the watcher).
 */
import { z } from 'zod';
import type { Alert } from '../alerts/alert';
import type { LogEntry } from '../alerts/dedup';
import type { Silence } from '../alerts/silence';
import type { Delivery } from '../notify/notifier';
import type { SymbolHistory } from '../rules/history';
import { CHANGE_KINDS, type ChangeValue } from '../snapshot/changes';
import type { CoinRecord, TickerRecord } from '../snapshot/model';

const str = z.string();
const strOrNull = z.string().nullable();
const num = z.number().finite();
const numOrNull = num.nullable();
const labels = z.record(z.string(), z.string());

const NetworkRow = z.object({
  network: str,
  coin: str,
  name: strOrNull,
  isDefault: z.boolean(),
  depositEnable: z.boolean(),
  withdrawEnable: z.boolean(),
  withdrawFee: strOrNull,
  withdrawMin: strOrNull,
  withdrawInternalMin: strOrNull,
  withdrawIntegerMultiple: strOrNull,
  minConfirm: numOrNull,
  withdrawTag: z.boolean().nullable(),
  depositDust: strOrNull,
  contractAddress: strOrNull,
  contractAddressUrl: strOrNull,
  depositDesc: strOrNull,
  withdrawDesc: strOrNull,
});

const CoinRow = z.object({ coin: str, name: strOrNull, depositAllEnable: z.boolean(), withdrawAllEnable: z.boolean(), networkList: z.array(NetworkRow) });

const TickerRow = z.object({
  symbol: str,
  priceChange: strOrNull,
  priceChangePercent: strOrNull,
  lastPrice: str,
  bidPrice: strOrNull,
  bidQty: strOrNull,
  askPrice: strOrNull,
  askQty: strOrNull,
  openPrice: strOrNull,
  highPrice: strOrNull,
  lowPrice: strOrNull,
  volume: strOrNull,
  quoteVolume: strOrNull,
  openTime: numOrNull,
  closeTime: numOrNull,
  count: numOrNull,
});

const AlertRow = z.object({
  fingerprint: str,
  ruleId: str,
  entity: str,
  labels,
  annotations: labels,
  status: z.enum(['pending', 'firing', 'resolved']),
  activeAt: num,
  startsAt: numOrNull,
  endsAt: numOrNull,
  lastActiveAt: num,
  lastNotifiedAt: numOrNull,
  value: numOrNull,
  event: z.boolean(),
});

const LogEntryRow = z.object({ firing: z.array(str), resolved: z.array(str), at: num });

const NotifiedAlertRow = z.object({
  status: z.enum(['firing', 'resolved']),
  labels,
  annotations: labels,
  startsAt: str,
  endsAt: str,
  generatorURL: str,
  fingerprint: str,
});

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
    alerts: z.array(NotifiedAlertRow),
  }),
  idempotencyKey: str,
});

const SilenceRow = z.object({ id: str, matchers: z.array(z.object({ label: str, pattern: str })), startsAt: num, endsAt: num, comment: str, createdBy: str });

const HistoryRow = z.array(z.tuple([str, z.object({ samples: z.array(z.object({ at: num, price: num })), signature: str, unchangedSince: num })]));

const ChangeValueRow = z.union([z.string(), num, z.boolean(), z.null()]);

/** Checked at compile time: each schema reads into the type the daemon uses. */
export const ROW_SCHEMAS = {
  coins: z.array(CoinRow) satisfies z.ZodType<CoinRecord[]>,
  tickers: z.array(TickerRow) satisfies z.ZodType<TickerRecord[]>,
  alert: AlertRow satisfies z.ZodType<Alert>,
  logEntry: LogEntryRow satisfies z.ZodType<LogEntry>,
  delivery: DeliveryRow satisfies z.ZodType<Delivery>,
  silence: SilenceRow satisfies z.ZodType<Silence>,
  history: HistoryRow satisfies z.ZodType<[string, SymbolHistory][]>,
  changeValue: ChangeValueRow satisfies z.ZodType<ChangeValue>,
  changeKind: z.enum(CHANGE_KINDS),
};

/** A JSON body read through a schema; undefined when it is not JSON or not of that shape. */
export function parseRow<T>(schema: z.ZodType<T>, body: unknown): T | undefined {
  if (typeof body !== 'string') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return undefined;
  }
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
