/**
 * Delivery, in the engine (engine.ts): the notification path (groups, inhibition, silences, the
 * notification log, the durable outbox, each receiver's retry stage, the chat bots) on the
 * engine's store connection. What to tell comes from the poll path, a call per step; the
 * configuration from the main thread; silences changed and the daily digest from the engine
 * itself. The main thread hears how each delivery went (its metrics) and what waits.
 */
import type { Alert } from '../alerts/alert';
import type { Config } from '../config';
import { wallNow } from '../lib/clock';
import { Notifications } from '../notify/orchestrator';
import type { Delivery } from '../notify/notifier';
import type { StateStore } from '../store/store';
import { botContext, type BotReads } from './chat-bots';
import { BOT_READS, type DeliveryReport } from './protocol';
import type { ServiceIO, ThreadParts } from './thread';
import { storedSilences, type StoredSilences } from './stored-silences';
import type { Silence } from '../alerts/silence';
import { systemScheduler } from '../lib/scheduler';

/** How long a bot command waits for them. */
const BOT_READS_WAIT_MS = 5_000;
/** How often the outbox's counts are looked at (reported when they changed); after every delivery attempt they are, in a turn of their own. */
const OUTBOX_REPORT_MS = 5_000;

export interface DeliveryServiceDeps extends Omit<ThreadParts, 'openStore'>, ServiceIO<DeliveryReport> {
  /** The active alerts (the poll path's: the sources of inhibition). */
  activeAlerts(): Iterable<Alert>;
}

export class DeliveryService {
  private notifications: Notifications | undefined;
  private store: StateStore | undefined;
  private stopReports: (() => void) | undefined;
  private lastOutbox = '';

  constructor(private readonly deps: DeliveryServiceDeps) {}

  /** The silences changed (the API, retention): what mutes is read again. */
  refreshSilences(): void {
    this.notifications?.refreshSilences();
  }

  /** Notifications made outside the groups (the daily digest). */
  send(deliveries: Delivery[]): void {
    return this.notifications?.sendDeliveries(deliveries);
  }

  /** What a step decided to tell, with the ids of their pending notifications. */
  tell(alerts: readonly Alert[], pending: readonly (number | undefined)[]): void {
    this.notifications?.insert(alerts, pending);
    this.reportSoon();
  }

  /**
   * The first configuration starts delivery on `store` (the engine's one connection), with the
   * alerts active when the daemon stopped (`restored`, the rows the poll path starts from too);
   * later ones reconfigure it. Throws when it cannot be put in force.
   */
  async configure(config: Config, externalURL: string, store: StateStore, restored: readonly Alert[]): Promise<void> {
    if (this.notifications === undefined) this.start(config, externalURL, store, restored);
    else await this.notifications.reconfigure(config);
  }

  /** Stores a silence (of the API: the chat bots save theirs the same way) and puts it in force at once; throws when the store refuses it (counted). */
  saveSilence(silence: Silence): void {
    if (this.silences === undefined) throw new Error('delivery has not started');
    this.silences.save(silence);
  }

  private silences: StoredSilences | undefined;

  private start(config: Config, externalURL: string, store: StateStore, restored: readonly Alert[]): void {
    const { clock, random, logger, dispatcher, post } = this.deps;
    this.store = store;
    const silences = (this.silences = storedSilences({ store: () => this.store, now: () => clock.now(), onStoreError: () => post({ t: 'counted', what: 'store_error' }), inForce: () => this.notifications?.refreshSilences() }));
    const notifications = new Notifications(config, {
      store,
      clock,
      ...(this.deps.scheduler !== undefined && { scheduler: this.deps.scheduler }),
      random,
      logger,
      dispatcher,
      externalURL,
      activeAlerts: () => this.deps.activeAlerts(),
      bot: botContext({
        now: () => clock.now(),
        wall: () => wallNow(clock),
        stateDir: config.state_dir,
        reads: async () => (await this.deps.ask(BOT_READS, BOT_READS_WAIT_MS)) as BotReads | undefined,
        silences,
        onIgnored: (receiver, reason) => post({ t: 'counted', what: 'ignored', receiver, reason }),
      }),
      onOutcome: (receiver, outcome, reason, latencyMs) => {
        post({ t: 'outcome', receiver, outcome, reason, latencyMs });
        this.reportSoon();
      },
      onStoreError: () => post({ t: 'counted', what: 'store_error' }),
      onDropped: (receiver) => post({ t: 'counted', what: 'dropped', receiver }),
    });
    this.notifications = notifications;
    // Alerts still firing from before a restart rejoin their groups; the notification log
    // (also restored) keeps them from being told again, and repeats keep their rhythm.
    notifications.resume();
    notifications.insert(restored.filter((a) => a.status === 'firing'));
    notifications.start();
    const scheduler = this.deps.scheduler ?? systemScheduler;
    this.stopReports = scheduler.every(OUTBOX_REPORT_MS, () => this.reportOutbox());
    this.reportOutbox();
  }

  /** The outbox's counts looked at in a turn of their own (several attempts in a row: once). */
  private reportSoon(): void {
    this.reportAsked ??= (this.deps.scheduler ?? systemScheduler).soon(() => {
      this.reportAsked = undefined;
      this.reportOutbox();
    });
  }

  private reportAsked: (() => void) | undefined;

  private reportOutbox(): void {
    const n = this.notifications;
    const store = this.store;
    if (n === undefined || store === undefined) return;
    let dead: ReadonlyMap<string, number>;
    try {
      dead = store.deadLetterCounts();
    } catch {
      return; // the store unreadable now: the counts are reported when it reads again
    }
    const report = { t: 'outbox', pending: Object.fromEntries(n.receivers.map((r) => [r, n.pendingDeliveries(r)])), dead: Object.fromEntries(n.receivers.map((r) => [r, dead.get(r) ?? 0])) } as const;
    const text = JSON.stringify(report);
    if (text === this.lastOutbox) return;
    this.lastOutbox = text;
    this.deps.post(report);
  }

  /** Stops the senders (what is unsent stays in the outbox; the engine closes the store). */
  async stop(): Promise<void> {
    this.stopReports?.();
    this.reportAsked?.();
    await this.notifications?.stop();
    this.reportOutbox();
  }
}
