/**
 * What the main thread holds of the poll thread's state, for delivery and the HTTP surface:
 * the active alerts (kept as the poll thread reports them after each step: inhibition and the
 * API read them at any moment), each endpoint's health, and each exchange's snapshot, brought
 * up to date when a view asks (refresh), as the parts that changed since the version held;
 * and each exchange's notice lists, as the poll thread reports them whenever a step changed them.
 */
import type { Alert } from '../alerts/alert';
import type { FiringCount } from '../metrics/polls';
import type { NoticeLists } from '../notices/book-json';
import { PollHealth } from '../poll/health';
import type { Answers, PartDelta, PollReport, Question } from '../poll/protocol';
import { emptySnapshot, type CoinRecord, type Endpoint, type Snapshot, type TickerRecord } from '../snapshot/model';


/** How long a view waits for the poll thread's parts (busy with a storm's step, say) before it shows what it holds. */
const REFRESH_WAIT_MS = 2_000;

export class PollMirror {
  readonly health = new PollHealth();
  private readonly alerts = new Map<string, Alert>();
  private readonly firing = new Map<string, FiringCount>();
  private readonly polls = new Map<string, PollReport>();
  private readonly snapshots = new Map<string, Snapshot>();
  private readonly noticeLists = new Map<string, NoticeLists>();
  /** Per exchange, the version of each part held here. */
  private readonly held = new Map<string, Partial<Record<Endpoint, number>>>();
  private refreshing: Promise<void> | undefined;
  /** The active alerts as of the last refresh (what the views show beside the snapshots of that refresh). */
  private refreshed: Alert[];
  /** Alerts were set or removed since the last refresh. */
  private alertsChanged = false;

  constructor(
    /** Asks the poll thread; undefined when it has not answered in time. */
    private readonly ask: (question: Question, timeoutMs: number) => Promise<unknown>,
    /** The alerts active when the daemon stopped (what the poll thread starts from too). */
    restored: Iterable<Alert>,
  ) {
    for (const a of restored) this.put(a);
    this.refreshed = [...this.alerts.values()];
  }

  /** Alerts set and removed by a step. */
  applyAlerts(set: readonly Alert[], removed: readonly string[]): void {
    for (const fp of removed) this.remove(fp);
    for (const a of set) this.put(a);
    this.alertsChanged = true;
  }

  /** A poll's report: health, and the versions of the exchange's parts. */
  polled(poll: PollReport): void {
    this.polls.set(poll.exchange, poll);
    if (poll.outcome === 'failed' || poll.outcome === 'empty') this.health.failure(poll.exchange, poll.endpoint, poll.at, poll.kind ?? 'schema', poll.error ?? '');
    else this.health.answer(poll.exchange, poll.endpoint, poll.at, poll.outcome === 'accepted');
  }

  /** An exchange's notice lists, whole, as its last step (or the start) left them. */
  noticed(exchange: string, lists: NoticeLists): void {
    this.noticeLists.set(exchange, lists);
  }

  /** An exchange's notice lists (undefined: none reported yet). */
  notices(exchange: string): NoticeLists | undefined {
    return this.noticeLists.get(exchange);
  }

  activeAlerts(): IterableIterator<Alert> {
    return this.alerts.values();
  }

  /**
   * The active alerts as of the last refresh: a view shows them with the snapshots of that
   * refresh (a step's alerts are reported before its poll, so the live alerts can be a step
   * ahead of the snapshots held: a page would count an alert whose closure it does not show).
   */
  refreshedAlerts(): readonly Alert[] {
    return this.refreshed;
  }

  firingCounts(): Iterable<Readonly<FiringCount>> {
    return this.firing.values();
  }

  /** An endpoint of the exchange has failed three polls in a row. */
  isDown(exchange: string): boolean {
    return this.polls.get(exchange)?.down ?? false;
  }

  weightUsed(exchange: string): number {
    return this.polls.get(exchange)?.weightUsed ?? 0;
  }

  /** The exchange's snapshot as of the last refresh (undefined: none held). */
  snapshot(exchange: string): Snapshot | undefined {
    return this.snapshots.get(exchange);
  }

  /**
   * Brings the snapshots up to the poll thread's, when a poll reported a newer version or a
   * step changed the alerts: the parts that changed since, as deltas, and the alerts as of them
   * (the poll thread answers after every report of the steps before, so both are of the same
   * moment). One refresh at a time; one that waits longer than REFRESH_WAIT_MS leaves the
   * snapshots as they are.
   */
  refresh(): Promise<void> {
    if (!this.stale()) return Promise.resolve();
    this.refreshing ??= (async () => {
      try {
        this.alertsChanged = false;
        const answer = (await this.ask({ q: 'parts', have: Object.fromEntries(this.held) }, REFRESH_WAIT_MS)) as Answers['parts'] | undefined;
        for (const d of answer?.parts ?? []) this.apply(d);
        this.refreshed = [...this.alerts.values()];
      } finally {
        this.refreshing = undefined;
      }
    })();
    return this.refreshing;
  }

  /** An exchange no longer watched. */
  forget(exchange: string): void {
    this.polls.delete(exchange);
    this.snapshots.delete(exchange);
    this.noticeLists.delete(exchange);
    this.held.delete(exchange);
    this.health.forget(exchange);
  }

  private stale(): boolean {
    if (this.alertsChanged) return true;
    for (const [exchange, poll] of this.polls) {
      const held = this.held.get(exchange);
      if (held?.coins !== poll.versions.coins || held.tickers !== poll.versions.tickers) return true;
    }
    return false;
  }

  private apply(d: PartDelta): void {
    const before = this.snapshots.get(d.exchange) ?? emptySnapshot(d.exchange);
    const unknown = d.unknown === undefined ? undefined : new Set(d.unknown);
    const next: Snapshot =
      d.part === 'coins'
        ? { ...before, coins: patched(before.coins, d, (c: CoinRecord) => c.coin), coinsAt: d.at, unknownCoins: unknown }
        : { ...before, tickers: patched(before.tickers, d, (t: TickerRecord) => t.symbol), tickersAt: d.at, unknownSymbols: unknown };
    if (next.unknownCoins === undefined) delete next.unknownCoins;
    if (next.unknownSymbols === undefined) delete next.unknownSymbols;
    this.snapshots.set(d.exchange, next);
    this.held.set(d.exchange, { ...this.held.get(d.exchange), [d.part]: d.version });
  }

  private put(a: Alert): void {
    const old = this.alerts.get(a.fingerprint);
    if (old !== undefined) this.count(old, -1);
    this.alerts.set(a.fingerprint, a);
    this.count(a, 1);
  }

  private remove(fingerprint: string): void {
    const old = this.alerts.get(fingerprint);
    if (old === undefined) return;
    this.alerts.delete(fingerprint);
    this.count(old, -1);
  }

  private count(a: Alert, by: 1 | -1): void {
    if (a.status !== 'firing') return;
    const alertname = a.labels.alertname ?? '';
    const severity = a.labels.severity ?? '';
    const key = `${alertname}\u0000${severity}`;
    let entry = this.firing.get(key);
    if (entry === undefined) this.firing.set(key, (entry = { alertname, severity, n: 0 }));
    entry.n += by;
  }
}

/** A part's records brought up to a delta: the whole of it, or what changed and what went. */
function patched<R>(held: ReadonlyMap<string, R>, d: PartDelta, keyOf: (r: R) => string): Map<string, R> {
  const records = new Map(d.whole ? [] : held);
  for (const key of d.gone) records.delete(key);
  for (const r of d.changed as R[]) records.set(keyOf(r), r);
  return records;
}
