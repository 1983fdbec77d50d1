/**
 * The delivery thread's composition root: the notification path (groups, inhibition,
 * silences, the notification log, the durable outbox, each receiver's retry stage, the chat
 * bots) with its own store connection. What to tell comes from the poll thread (poll/protocol.ts
 * `Tell`); the configuration, the silences changed by the API and the daily digest from the
 * main thread, which hears back how each delivery went (its metrics) and what waits. A storm's
 * 8,000-alert notification (a 4 MB body to judge, serialize, compress and commit) is worked
 * here, never where health checks are answered.
 */
import type { MessagePort } from 'node:worker_threads';
import type { Alert } from '../alerts/alert';
import type { Config } from '../config';
import { wallNow } from '../lib/clock';
import { errorMessage } from '../lib/error-message';
import { Notifications } from '../notify/orchestrator';
import type { MailTransportFactory } from '../notify/plugin';
import type { Delivery } from '../notify/notifier';
import type { Outcome } from '../notify/pipeline/retry-stage';
import type { Tell } from '../poll/protocol';
import type { StateStore } from '../store/store';
import { botContext, type BotReads } from './chat-bots';
import { Channel, type Port } from './channel';
import { serve, type Service, type ServiceIO, type ThreadParts } from './service-thread';
import { followStoreFile, STORE_CHECK_MS } from './store-file';
import { storedSilences } from './stored-silences';
import { systemScheduler } from '../lib/scheduler';

/** Main thread -> delivery thread. */
export type DeliveryCommand =
  /** The configuration to deliver by (the first one starts; later ones are reloads); `externalURL` is the HTTP surface's. */
  | { t: 'configure'; config: unknown; externalURL: string }
  /** The silences changed (the API): what mutes is read again. */
  | { t: 'silences' }
  /** Notifications made outside the groups (the daily digest). */
  | { t: 'send'; deliveries: Delivery[] };

/** Delivery thread -> main thread. */
export type DeliveryReport =
  /** A configuration is in force (after each), or could not be put in force. */
  | { t: 'ready' }
  | { t: 'failed'; error: string }
  /** A delivery attempt (spotwatch_notifications_total, _failed_total, _latency_seconds). */
  | { t: 'outcome'; receiver: string; outcome: Outcome; reason?: string | undefined; latencyMs?: number | undefined }
  /** A write of the outbox refused, a held notification dropped, a bot update not answered. */
  | { t: 'counted'; what: 'store_error' } | { t: 'counted'; what: 'dropped'; receiver: string } | { t: 'counted'; what: 'ignored'; receiver: string; reason: string }
  /** Per receiver, notifications waiting (spotwatch_outbox_pending) and dead letters (spotwatch_dead_letters), when they changed. */
  | { t: 'outbox'; pending: Record<string, number>; dead: Record<string, number> };

/** The delivery thread asks the main thread what a bot's /status and /closed read. */
export const BOT_READS = { q: 'bot' } as const;
/** How long a bot command waits for them. */
const BOT_READS_WAIT_MS = 5_000;
/** How often the outbox's counts are reported (when they changed). */
const OUTBOX_REPORT_MS = 1_000;

export interface DeliveryServiceDeps extends ThreadParts, ServiceIO<DeliveryReport> {
  mailTransport?: MailTransportFactory;
}

/**
 * What the poll thread tells, as delivery takes it: its copy of the active alerts (the sources
 * of inhibition; alerts just set are told by fingerprint), and each step's alerts to tell,
 * gathered until its last message (a group flushed between two messages would be told twice).
 */
export class ToldAlerts {
  readonly active = new Map<string, Alert>();
  private alerts: Alert[] = [];
  private pending: (number | undefined)[] = [];

  /** A message; a step's alerts to tell (with their pending notifications' ids) at its last. */
  take(message: Tell): { alerts: Alert[]; pending: (number | undefined)[] } | undefined {
    if (message.t === 'alerts') {
      for (const fp of message.removed) this.active.delete(fp);
      for (const a of message.set) this.active.set(a.fingerprint, a);
      return undefined;
    }
    message.alerts.forEach((a, i) => {
      const alert = typeof a === 'string' ? this.active.get(a) : a;
      if (alert === undefined) return;
      this.alerts.push(alert);
      this.pending.push(message.pending[i] ?? undefined);
    });
    if (!message.last) return undefined;
    const batch = { alerts: this.alerts, pending: this.pending };
    this.alerts = [];
    this.pending = [];
    return batch;
  }
}

export class DeliveryService implements Service<DeliveryCommand> {
  private notifications: Notifications | undefined;
  private store: StateStore | undefined;
  private readonly heard = new ToldAlerts();
  private stopReports: (() => void) | undefined;
  private lastOutbox = '';
  /** Stops the look at the store's file (store-file.ts). */
  private stopStoreChecks: (() => void) | undefined;

  constructor(private readonly deps: DeliveryServiceDeps) {}

  async handle(command: DeliveryCommand): Promise<void> {
    switch (command.t) {
      case 'configure':
        return this.configure(command.config as Config, command.externalURL);
      case 'silences':
        return this.notifications?.refreshSilences();
      case 'send':
        return this.notifications?.sendDeliveries(command.deliveries);
    }
  }

  /** What the poll thread tells. */
  told(message: Tell): void {
    const batch = this.heard.take(message);
    if (batch !== undefined) this.notifications?.insert(batch.alerts, batch.pending);
  }

  /** The first configuration starts delivery, later ones reconfigure it; either way `ready` (or `failed`) follows. */
  private async configure(config: Config, externalURL: string): Promise<void> {
    try {
      if (this.notifications === undefined) this.start(config, externalURL);
      else await this.notifications.reconfigure(config);
      this.deps.post({ t: 'ready' });
    } catch (err) {
      this.deps.post({ t: 'failed', error: errorMessage(err) });
    }
  }

  private start(config: Config, externalURL: string): void {
    const { clock, random, logger, dispatcher, post } = this.deps;
    const store = this.deps.openStore(config.state_dir);
    this.store = store;
    // The alerts active when the daemon stopped: the poll thread starts from the same rows.
    const restored = [...store.loadAlerts().values()];
    for (const a of restored) this.heard.active.set(a.fingerprint, a);
    const silences = storedSilences({ store: () => this.store, now: () => clock.now(), onStoreError: () => post({ t: 'counted', what: 'store_error' }), inForce: () => this.notifications?.refreshSilences() });
    const notifications = new Notifications(config, {
      store,
      clock,
      ...(this.deps.scheduler !== undefined && { scheduler: this.deps.scheduler }),
      random,
      logger,
      dispatcher,
      ...(this.deps.mailTransport !== undefined && { mailTransport: this.deps.mailTransport }),
      externalURL,
      activeAlerts: () => this.heard.active.values(),
      bot: botContext({
        now: () => clock.now(),
        wall: () => wallNow(clock),
        stateDir: config.state_dir,
        reads: async () => (await this.deps.ask(BOT_READS, BOT_READS_WAIT_MS)) as BotReads | undefined,
        silences,
        onIgnored: (receiver, reason) => post({ t: 'counted', what: 'ignored', receiver, reason }),
      }),
      onOutcome: (receiver, outcome, reason, latencyMs) => post({ t: 'outcome', receiver, outcome, reason, latencyMs }),
      onStoreError: () => {
        post({ t: 'counted', what: 'store_error' });
        // Refused because the file was written again through another thread (its connection fences the deleted one): moved to the new one now, not at the next check, so what is held is written within a second.
        followStoreFile(this.store, logger, 'delivery');
      },
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
    this.stopStoreChecks = scheduler.every(this.deps.storeCheckMs ?? STORE_CHECK_MS, () => followStoreFile(this.store, logger, 'delivery'));
  }

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

  async stop(): Promise<void> {
    this.stopReports?.();
    this.stopStoreChecks?.();
    // The poll thread, stopped first, has written a deleted store file again: what this thread still writes (deliveries in flight, what is held) goes there.
    followStoreFile(this.store, this.deps.logger, 'delivery');
    await this.notifications?.stop();
    this.reportOutbox();
    this.store?.close();
    await this.store?.settled();
  }
}

/**
 * The delivery service on its thread's end of the channel to the main thread (`port`), told by
 * the poll thread on `poll`; `done` once it has stopped.
 */
export function serveDelivery(port: Port, level: string, poll: MessagePort, parts: ThreadParts, done: () => Promise<void> | void = () => undefined): void {
  let service: DeliveryService | undefined;
  new Channel<never, Tell>(poll, { message: (m) => service?.told(m) });
  serve<DeliveryCommand, DeliveryReport>(port, level, (io) => (service = new DeliveryService({ ...parts, ...io })), async () => {
    poll.close();
    await done();
  });
}
