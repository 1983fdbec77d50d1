import { Counter, Gauge, Histogram, collectDefaultMetrics, type Registry } from 'prom-client';
import { FAILURE_KINDS } from '../exchange/errors';
import type { Endpoint } from '../snapshot/model';
import { FAILURE_REASONS } from '../notify/notifier';
import { CHANGE_KINDS } from '../snapshot/changes';
import { ANNOUNCEMENT_KINDS, MAINTENANCE_STATES, STATUS_STATES, type AnnouncementKind } from '../notices/model';
import type { NoticeLists } from '../notices/book-json';
import { NOTICE_FAILURE_KINDS } from '../notices/source';
import { oneWindowEach } from '../notices/same-window';

/** prom-client's default metrics spotwatch does not export (README "Metrics"). */
const DROPPED_DEFAULT_METRICS = ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'] as const;

/**
 * The low-cardinality metrics (per exchange, endpoint, rule, receiver), in a registry that is
 * passed in, never the global one. The per-network and per-ticker families are rendered
 * straight from the snapshot instead (see render.ts).
 */
export function createMetrics(registry: Registry) {
  const registers = [registry];
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 100 });
  // Gauges named like counters, which `promtool check metrics` refuses; each is the sum of its
  // family by type (`sum(nodejs_active_handles)`), which stays.
  for (const name of DROPPED_DEFAULT_METRICS) registry.removeSingleMetric(name);
  return {
    up: new Gauge({ name: 'spotwatch_up', help: '1 when the last poll of every endpoint of the exchange succeeded.', labelNames: ['exchange'], registers }),
    pollDuration: new Histogram({
      name: 'spotwatch_poll_duration_seconds',
      help: 'Time of one poll, request and processing.',
      labelNames: ['exchange', 'endpoint'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    pollErrors: new Counter({ name: 'spotwatch_poll_errors_total', help: 'Failed polls by kind.', labelNames: ['exchange', 'endpoint', 'kind'], registers }),
    noticeErrors: new Counter({ name: 'spotwatch_notice_errors_total', help: 'Failed reads of a notice source, by kind (notices.md section 6).', labelNames: ['exchange', 'source', 'kind'], registers }),
    exchangeStatus: new Gauge({ name: 'spotwatch_exchange_status', help: 'The exchange\'s status as its notice source says: 1 for the state now, 0 for the others (no series: no status read).', labelNames: ['exchange', 'state'], registers }),
    maintenanceWindows: new Gauge({ name: 'spotwatch_maintenance_windows', help: 'Maintenance windows known now, by state.', labelNames: ['exchange', 'state'], registers }),
    announcements: new Counter({ name: 'spotwatch_announcements_total', help: 'Announcements read for the first time since the start, the first read of each source included.', labelNames: ['exchange', 'kind'], registers }),
    malformedRecords: new Counter({ name: 'spotwatch_malformed_records_total', help: 'Records that failed validation (their previous value was kept).', labelNames: ['exchange', 'endpoint'], registers }),
    lastSuccess: new Gauge({ name: 'spotwatch_last_success_timestamp_seconds', help: 'When the endpoint was last polled successfully.', labelNames: ['exchange', 'endpoint'], registers }),
    weightUsed: new Gauge({ name: 'spotwatch_request_weight_used', help: 'Request weight spent within the current window.', labelNames: ['exchange'], registers }),
    coins: new Gauge({ name: 'spotwatch_coins', help: 'Coins listed by the exchange.', labelNames: ['exchange'], registers }),
    changes: new Counter({ name: 'spotwatch_changes_total', help: 'Changes seen, by kind.', labelNames: ['exchange', 'kind'], registers }),
    alertsFiring: new Gauge({ name: 'spotwatch_alerts_firing', help: 'Alerts firing, by rule.', labelNames: ['alertname', 'severity'], registers }),
    notifications: new Counter({ name: 'spotwatch_notifications_total', help: 'Notification attempts by outcome.', labelNames: ['receiver', 'outcome'], registers }),
    notificationLatency: new Histogram({
      name: 'spotwatch_notification_latency_seconds',
      help: 'From a notification entering the outbox to the receiver acknowledging it (retries included).',
      labelNames: ['receiver'],
      buckets: [0.05, 0.25, 1, 5, 15, 60, 300, 1800, 7200],
      registers,
    }),
    outboxPending: new Gauge({ name: 'spotwatch_outbox_pending', help: 'Notifications waiting to be delivered.', labelNames: ['receiver'], registers }),
    notificationsFailed: new Counter({ name: 'spotwatch_notifications_failed_total', help: 'Failed notification attempts (retried or not), by reason.', labelNames: ['receiver', 'reason'], registers }),
    deadLetters: new Gauge({ name: 'spotwatch_dead_letters', help: 'Notifications given up on (GET /api/v1/dead-letters).', labelNames: ['receiver'], registers }),
    notificationsDropped: new Counter({
      name: 'spotwatch_notifications_dropped_total',
      help: 'Notifications dropped because the store could not be written and the in-memory hold was full.',
      labelNames: ['receiver'],
      registers,
    }),
    storeWriteErrors: new Counter({ name: 'spotwatch_store_write_errors_total', help: 'Writes to the state store that failed (disk full, read-only); what they held is kept in memory and retried.', registers }),
    historyDropped: new Counter({ name: 'spotwatch_history_rows_dropped_total', help: 'Change rows never written to the history: the store failed for longer than the in-memory queue holds.', registers }),
    rowsSetAside: new Counter({ name: 'spotwatch_store_rows_set_aside_total', help: 'Unreadable rows of the state store set aside (table set_aside), by table.', labelNames: ['table'], registers }),
    botUpdatesIgnored: new Counter({
      name: 'spotwatch_bot_updates_ignored_total',
      help: 'Chat messages and button presses a receiver\'s bot did not act on: from a chat other than its own (other_chat), too old to run (stale), or from someone allowed_users does not list (not_allowed).',
      labelNames: ['receiver', 'reason'],
      registers,
    }),
    reloadOk: new Gauge({ name: 'spotwatch_config_last_reload_successful', help: '1 when the last configuration load succeeded.', registers }),
    /** Series started so far (initSeries): a reload must not zero the ones that exist. */
    started: new Set<string>(),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/**
 * An exchange's notice lists as the engine reported them: its status (1 for the state now,
 * 0 for the others; no series without a status), its windows by state, and the announcements
 * that step read for the first time, by kind.
 */
export function observeNotices(m: Metrics, exchange: string, lists: NoticeLists, firstRead: Partial<Record<AnnouncementKind, number>>): void {
  const status = lists.status;
  for (const state of STATUS_STATES) {
    if (status === null) m.exchangeStatus.remove({ exchange, state });
    else m.exchangeStatus.set({ exchange, state }, status.state === state ? 1 : 0);
  }
  const windows = new Map<string, number>();
  // One window seen through two sources counts once.
  for (const w of oneWindowEach(lists.windows)) windows.set(w.state, (windows.get(w.state) ?? 0) + 1);
  for (const state of MAINTENANCE_STATES) m.maintenanceWindows.set({ exchange, state }, windows.get(state) ?? 0);
  for (const kind of ANNOUNCEMENT_KINDS) {
    const n = firstRead[kind] ?? 0;
    if (n > 0) m.announcements.inc({ exchange, kind }, n);
  }
}

const ENDPOINTS: readonly Endpoint[] = ['coins', 'tickers'];

function firstTime(m: Metrics, key: string): boolean {
  if (m.started.has(key)) return false;
  m.started.add(key);
  return true;
}

/**
 * Known series start at zero, so rate() and absent() work from the first scrape. Called again
 * on a reload, it starts only the series of new exchanges, receivers and rules: the others
 * keep their values (spotwatch_up must not drop to 0, nor a histogram lose its counts).
 */
export function initSeries(
  m: Metrics,
  exchanges: readonly string[],
  receivers: readonly string[],
  rules: readonly { alert: string; severity: string }[] = [],
  /** Per exchange, the names of its notice sources (their error series start at zero). */
  noticeSources: ReadonlyMap<string, readonly string[]> = new Map(),
): void {
  for (const r of rules) if (firstTime(m, `rule\u0000${r.alert}\u0000${r.severity}`)) m.alertsFiring.set({ alertname: r.alert, severity: r.severity }, 0);
  for (const exchange of exchanges) {
    if (!firstTime(m, `exchange\u0000${exchange}`)) continue;
    m.up.set({ exchange }, 0);
    for (const endpoint of ENDPOINTS) {
      for (const kind of FAILURE_KINDS) m.pollErrors.inc({ exchange, endpoint, kind }, 0);
      m.pollDuration.zero({ exchange, endpoint });
    }
    for (const kind of CHANGE_KINDS) m.changes.inc({ exchange, kind }, 0);
    for (const state of MAINTENANCE_STATES) m.maintenanceWindows.set({ exchange, state }, 0);
    for (const kind of ANNOUNCEMENT_KINDS) m.announcements.inc({ exchange, kind }, 0);
  }
  for (const [exchange, sources] of noticeSources) {
    for (const source of sources) if (firstTime(m, `notice\u0000${exchange}\u0000${source}`)) for (const kind of NOTICE_FAILURE_KINDS) m.noticeErrors.inc({ exchange, source, kind }, 0);
  }
  for (const receiver of receivers) {
    if (!firstTime(m, `receiver\u0000${receiver}`)) continue;
    for (const outcome of ['success', 'failed', 'retry']) m.notifications.inc({ receiver, outcome }, 0);
    m.notificationLatency.zero({ receiver });
    m.outboxPending.set({ receiver }, 0);
    // Every reason a notifier can give starts at zero (notify's list, the contract's).
    for (const reason of FAILURE_REASONS) m.notificationsFailed.inc({ receiver, reason }, 0);
    m.deadLetters.set({ receiver }, 0);
    m.notificationsDropped.inc({ receiver }, 0);
  }
  if (firstTime(m, 'store')) {
    m.storeWriteErrors.inc(0);
    m.historyDropped.inc(0);
  }
  m.reloadOk.set(1);
}

/**
 * An exchange or receiver no longer configured (a reload): its series go, instead of standing
 * frozen at their last value (a frozen last-success time would look like stale data forever).
 */
export function forgetSeries(m: Metrics, gone: { exchanges: readonly string[]; receivers: readonly string[] }): void {
  for (const exchange of gone.exchanges) {
    m.started.delete(`exchange\u0000${exchange}`);
    m.up.remove({ exchange });
    m.weightUsed.remove({ exchange });
    m.coins.remove({ exchange });
    for (const endpoint of ENDPOINTS) {
      m.pollDuration.remove({ exchange, endpoint });
      m.lastSuccess.remove({ exchange, endpoint });
      m.malformedRecords.remove({ exchange, endpoint });
      for (const kind of FAILURE_KINDS) m.pollErrors.remove({ exchange, endpoint, kind });
    }
    for (const kind of CHANGE_KINDS) m.changes.remove({ exchange, kind });
    for (const state of STATUS_STATES) m.exchangeStatus.remove({ exchange, state });
    for (const state of MAINTENANCE_STATES) m.maintenanceWindows.remove({ exchange, state });
    for (const kind of ANNOUNCEMENT_KINDS) m.announcements.remove({ exchange, kind });
    for (const key of [...m.started]) {
      const [what, ex, source] = key.split('\u0000');
      if (what !== 'notice' || ex !== exchange || source === undefined) continue;
      m.started.delete(key);
      for (const kind of NOTICE_FAILURE_KINDS) m.noticeErrors.remove({ exchange, source, kind });
    }
  }
  for (const receiver of gone.receivers) {
    m.started.delete(`receiver\u0000${receiver}`);
    for (const outcome of ['success', 'failed', 'retry']) m.notifications.remove({ receiver, outcome });
    m.notificationLatency.remove({ receiver });
    m.outboxPending.remove({ receiver });
    for (const reason of FAILURE_REASONS) m.notificationsFailed.remove({ receiver, reason });
    m.deadLetters.remove({ receiver });
    m.notificationsDropped.remove({ receiver });
    for (const reason of ['other_chat', 'stale', 'not_allowed']) m.botUpdatesIgnored.remove({ receiver, reason });
  }
}
