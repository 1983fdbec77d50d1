import type { Config } from '../config';
import { outageMessage } from '../http/closed-since';
import type { Clock } from '../lib/clock';
import type { Logger } from '../lib/logger';
import { digestDelivery, DigestSchedule, digestText, type DigestContent } from '../notify/digest';
import type { Delivery } from '../notify/notifier';
import type { NoticeLists } from '../notices/book-json';
import { windowsAhead } from '../notices/ahead';
import type { Snapshot } from '../snapshot/model';
import type { Outage, OutageQuery } from '../outages/model';
import { systemScheduler, type Scheduler } from '../lib/scheduler';

/** How many movers a digest lists. */
const MOVERS = 5;
const DAY_MS = 86_400_000;

export interface DigestDeps {
  clock: Clock;
  logger: Logger;
  config(): Config;
  outages(q: OutageQuery): Outage[];
  /** Each configured exchange's current snapshot. */
  snapshots(): { name: string; symbols: readonly string[]; snapshot: Snapshot | undefined }[];
  /** Each configured exchange's notice lists, in the config's order (those reported so far). */
  notices(): Iterable<NoticeLists>;
  send(deliveries: Delivery[]): void;
  externalURL(): string;
}

/** What the digest at `now` says: from the outages kept, the notice lists and the tickers of the watched symbols. */
export function digestContent(deps: Pick<DigestDeps, 'outages' | 'snapshots' | 'notices'>, now: number): DigestContent {
  const closed = deps
    .outages({ since: now + 1, limit: 1000 })
    .filter((o) => o.to === null)
    .map((o) => ({ exchange: o.exchange, coin: o.coin, network: o.network, direction: o.direction, since: o.from, message: outageMessage(o) }));
  const outages = deps
    .outages({ since: now - DAY_MS, limit: 1000 })
    .filter((o) => o.from !== null && o.from >= now - DAY_MS)
    .map((o) => ({ exchange: o.exchange, coin: o.coin, network: o.network, direction: o.direction, from: o.from, to: o.to, message: outageMessage(o) }));
  const movers: DigestContent['movers'] = [];
  for (const ex of deps.snapshots()) {
    const watched = new Set(ex.symbols);
    for (const t of ex.snapshot?.tickers.values() ?? []) {
      if (watched.size > 0 && !watched.has(t.symbol)) continue;
      const change = Number(t.priceChangePercent);
      if (t.priceChangePercent !== null && Number.isFinite(change)) movers.push({ exchange: ex.name, symbol: t.symbol, changePercent: change });
    }
  }
  movers.sort((a, b) => Math.abs(b.changePercent) - Math.abs(a.changePercent) || (a.symbol < b.symbol ? -1 : 1));
  const maintenance = windowsAhead(deps.notices(), now, DAY_MS).map((w) => ({ exchange: w.exchange, title: w.title, state: w.state === 'ongoing' ? ('ongoing' as const) : ('scheduled' as const), begins: w.begins, ends: w.ends }));
  return { closed, outages, maintenance, movers: movers.slice(0, MOVERS) };
}

/**
 * notify.digest: once a day at a local time (DST-correct), a summary to each of its receivers
 * through the notification path (see Notifications.sendDeliveries). `check()` runs on a timer
 * and asks the injected clock; a change of `at` or `timezone` (a reload) takes effect at once.
 */
export class Digests {
  private schedule: DigestSchedule | undefined;
  private key = '';

  constructor(private readonly deps: DigestDeps) {}

  /** Sends the digest when it is due. */
  check(): void {
    const digest = this.deps.config().notify.digest;
    const now = this.deps.clock.now();
    if (digest === undefined) {
      this.schedule = undefined;
      return;
    }
    const key = `${digest.at}\u0000${digest.timezone}`;
    if (this.schedule === undefined || key !== this.key) {
      this.schedule = new DigestSchedule(digest.at, digest.timezone, now);
      this.key = key;
      return;
    }
    const day = this.schedule.due(now);
    if (day === undefined) return;
    this.send(digest, day, now);
  }

  private send(digest: NonNullable<Config['notify']['digest']>, day: string, now: number): void {
    try {
      const text = digestText(digestContent(this.deps, now), day, digest.timezone, now, digest.send_empty);
      if (text === undefined) {
        this.deps.logger.info({ day }, 'daily digest skipped: nothing to say');
        return;
      }
      this.deps.send(digest.receivers.map((r) => digestDelivery(r, day, text, now, this.deps.externalURL())));
      this.deps.logger.info({ day, receivers: digest.receivers }, 'daily digest sent');
    } catch (err) {
      this.deps.logger.error({ err, day }, 'daily digest failed');
    }
  }
}

/** How often the digests are checked against the clock. */
const CHECK_MS = 10_000;

/** Starts the daily digests (checked now, then every CHECK_MS); returns what stops them. */
export function startDigests(deps: DigestDeps, scheduler: Scheduler = systemScheduler): () => void {
  const digests = new Digests(deps);
  digests.check();
  return scheduler.every(CHECK_MS, () => digests.check());
}
