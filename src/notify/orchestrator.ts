import type { Dispatcher } from 'undici';
import type { Alert } from '../alerts/alert';
import { compileInhibitRules, DEFAULT_INHIBIT_RULES, type InhibitRuleInput } from '../alerts/inhibit';
import { compileRoutes, type RouteDefaults, type RouteInput } from '../alerts/route';
import { configSilences, maintenanceWindows, Muter, type MaintenanceInput, type SilenceInput } from '../alerts/silence';
import type { Clock } from '../lib/clock';
import type { Logger } from '../lib/logger';
import { TimeBase } from '../lib/time-base';
import { patternProblem } from '../lib/pattern';
import { smtpTransport } from './mail-transport';
import type { Delivery, Notifier } from './notifier';
import { Pipeline } from './pipeline/pipeline';
import type { ConfiguredReceiver, MailTransportFactory, ReceiverDeps } from './plugin';
import type { ReceiverRegistry } from './receiver-registry';
import { receiverRegistry, type BotDeps } from './registry';
import { RetryStage, type Outcome } from './pipeline/retry-stage';
import { HeldOutbox } from './held-outbox';
import type { DeliveryStore } from './outbox-port';
import { systemScheduler, type Scheduler } from '../lib/scheduler';

/**
 * What of the configuration the delivery reads: the `notify` section, the external URL and the
 * state directory. config/'s `Config` is one (the schema composes the receivers from this
 * folder's registry, so notify/ names the shape it reads rather than importing config/).
 */
export interface DeliveryConfig {
  notify: Omit<RouteDefaults, 'receivers'> & {
    receivers: readonly ConfiguredReceiver[];
    routes: readonly RouteInput[];
    inhibit_rules: readonly InhibitRuleInput[];
    silences: readonly SilenceInput[];
    maintenance: readonly MaintenanceInput[];
    retry: { base_delay: number; max_delay: number; max_age: number };
  };
  server: { external_url?: string | undefined };
  state_dir: string;
}

/** How often notifications held in memory (the store failing) are tried on disk again. */
const HELD_RETRY_MS = 1_000;

export interface NotificationsDeps {
  store: DeliveryStore;
  clock: Clock;
  /** What runs the groups' flushes (default: the system's timers). */
  scheduler?: Scheduler;
  random: () => number;
  logger: Logger;
  /** The HTTP connection pool of receivers that speak HTTP (the caller closes it). */
  dispatcher: Dispatcher;
  /** Opens SMTP transports (nodemailer's by default). */
  mailTransport?: MailTransportFactory;
  /** The receiver kinds (notify/registry.ts's by default; a test adds its own). */
  receivers?: ReceiverRegistry;
  /** What a chat bot's commands read of and ask of the daemon (Telegram's `commands: true`); none: bots only send. */
  bot?: BotDeps['bot'];
  externalURL: string;
  activeAlerts: () => Iterable<Alert>;
  onOutcome: (receiver: string, outcome: Outcome, reason?: string, latencyMs?: number) => void;
  /** A write to the store failed (what it held is kept in memory and retried). */
  onStoreError?: (err: unknown) => void;
  /** A held notification dropped: the store failed for longer than the hold holds. */
  onDropped?: (receiver: string) => void;
}

/**
 * Everything between the engine and the receivers, built from the config: the pipeline (routes,
 * groups, the stages: inhibition, silences, notification log), the durable outbox, and one
 * retry stage per receiver, each with the notifier its kind builds (notify/registry.ts).
 * (A `Delivery`, in notify/notifier.ts, is one notification for one receiver, as the outbox holds it.)
 */
export class Notifications {
  readonly muter = new Muter();
  /** The receiver kinds: they build the notifiers and say how each is routed. */
  private readonly kinds: ReceiverRegistry;
  private pipeline: Pipeline;
  private retryStages: RetryStage[] = [];
  private notifiers: Notifier[] = [];
  private stopTicks: (() => void) | undefined;
  /** The store's outbox, and what is held in memory while the store cannot be written. */
  private readonly outbox: HeldOutbox;
  /** Monotonic ms of the last try of what is held (never, at first). */
  private heldTriedAt = -Infinity;
  /** The clocks, read together: the groups wait on the monotonic one; a step of the wall clock is logged here. */
  private readonly time: TimeBase;

  constructor(
    private config: DeliveryConfig,
    private readonly deps: NotificationsDeps,
  ) {
    this.kinds = deps.receivers ?? receiverRegistry;
    this.time = new TimeBase(deps.clock, deps.logger);
    this.outbox = new HeldOutbox({
      store: deps.store,
      logger: deps.logger,
      onWriteError: (err) => deps.onStoreError?.(err),
      onDropped: (receiver) => deps.onDropped?.(receiver),
    });
    this.pipeline = new Pipeline({ ...this.pipelineParts(config), muter: this.muter, port: this.port(), activeAlerts: deps.activeAlerts, logger: deps.logger });
    this.refreshSilences();
    this.startReceivers(config, true);
  }

  get receivers(): string[] {
    return this.config.notify.receivers.map((r) => r.name);
  }

  /**
   * Alerts to tell, from the poll path, in decision order, into their groups and out at once
   * where nothing waits. `pending[i]`, when given, is the pending notification the poll path
   * wrote of `alerts[i]` with the state that decided it (a change event, a resolution): it goes
   * when every group it joined has been committed to the outbox.
   */
  insert(alerts: readonly Alert[], pending?: readonly (number | undefined)[]): void {
    if (alerts.length === 0) return;
    try {
      const at = this.time.read();
      this.pipeline.insert(alerts, at.wall, pending, at.mono);
    } catch (err) {
      this.deps.logger.error({ err }, 'notification pipeline failed to take alerts');
    }
    this.tick();
  }

  /**
   * Notifications made outside the alert groups (the daily digest): committed to the outbox,
   * with their log entries, and sent by the receivers' retry stages like any other.
   */
  sendDeliveries(deliveries: readonly Delivery[]): void {
    if (deliveries.length === 0) return;
    const now = this.deps.clock.now();
    const items = deliveries.map((d) => ({
      receiver: d.notification.receiver,
      groupKey: d.notification.groupKey,
      delivery: d,
      entry: { firing: d.notification.alerts.map((a) => a.fingerprint), resolved: [], at: now },
    }));
    this.outbox.commit(items, [], now);
    for (const s of this.retryStages) s.wake();
  }

  /** The external URL notifications link to. */
  get externalURL(): string {
    return this.config.server.external_url ?? this.deps.externalURL;
  }

  /** After a restart: what was handed over but not yet committed to the outbox. */
  resume(): void {
    const pending = this.deps.store.loadPending();
    if (pending.length === 0) return;
    this.deps.logger.info({ pending: pending.length }, 'resuming notifications that were waiting in their groups');
    const at = this.time.read();
    this.pipeline.insert(pending.map((p) => p.alert), at.wall, pending.map((p) => p.id), at.mono);
    this.tick();
  }

  /** Flushes the groups due, and tries what is held in memory on disk again. Runs on a timer and after every insert. */
  tick(): void {
    const at = this.time.read();
    if (this.outbox.holding && at.mono - this.heldTriedAt >= HELD_RETRY_MS) {
      this.heldTriedAt = at.mono;
      // Written back: the retry stages send it now.
      if (this.outbox.retry()) for (const s of this.retryStages) s.wake();
    }
    try {
      if (this.pipeline.tick(at.wall, at.mono) > 0) for (const s of this.retryStages) s.wake();
    } catch (err) {
      this.deps.logger.error({ err }, 'notification pipeline failed; will try again');
    }
  }

  start(): void {
    this.stopTicks ??= (this.deps.scheduler ?? systemScheduler).every(250, () => this.tick(), { keepAlive: true });
  }

  /** Silences changed (API or config): what mutes from now on. */
  refreshSilences(): void {
    // A silence stored by an earlier version may use what RE2 refuses (lookahead): set aside, loudly, not fatal.
    const stored = this.deps.store.loadSilences().filter((s) => {
      const problem = s.matchers.map((m) => patternProblem(m.pattern)).find((p) => p !== undefined);
      if (problem !== undefined) this.deps.logger.warn({ silence: s.id, problem }, 'stored silence has a pattern that cannot run; ignored (delete it and create it again)');
      return problem === undefined;
    });
    this.muter.setSilences([...configSilences(this.config.notify.silences), ...stored]);
    this.muter.setWindows(maintenanceWindows(this.config.notify.maintenance));
  }

  /** A reload: new routes, receivers, inhibit rules and silences; the outbox and groups stay. */
  async reconfigure(config: DeliveryConfig): Promise<void> {
    this.config = config;
    this.pipeline.reconfigure(this.pipelineParts(config));
    this.refreshSilences();
    await this.stopReceivers();
    this.startReceivers(config);
  }

  async stop(): Promise<void> {
    this.stopTicks?.();
    this.stopTicks = undefined;
    await this.stopReceivers();
    // A last try: what is still held would otherwise be lost with the process.
    if (!this.outbox.retry()) this.deps.logger.error('the store still cannot be written: notifications held in memory are lost at this stop');
  }

  /** Notifications waiting for a receiver, held ones included. */
  pendingDeliveries(receiver: string): number {
    return this.outbox.pendingDeliveries(receiver);
  }

  private pipelineParts(config: DeliveryConfig) {
    const n = config.notify;
    // Receivers whose kind wants each alert on its own, again every interval (ReceiverPlugin.resendInterval).
    const direct = new Map(n.receivers.flatMap((r) => {
      const resend = this.kinds.resendInterval(r);
      return resend === undefined ? [] : [[r.name, resend] as const];
    }));
    return {
      routes: compileRoutes(n.routes, { receivers: n.receivers.map((r) => r.name), group_by: n.group_by, group_wait: n.group_wait, group_interval: n.group_interval, repeat_interval: n.repeat_interval }, direct),
      receivers: new Map(n.receivers.map((r) => [r.name, { sendResolved: r.send_resolved }])),
      inhibitRules: compileInhibitRules([...DEFAULT_INHIBIT_RULES, ...n.inhibit_rules]),
      externalURL: config.server.external_url ?? this.deps.externalURL,
    };
  }

  private port() {
    const { clock } = this.deps;
    return {
      logEntry: (receiver: string, key: string) => this.outbox.logEntry(receiver, key),
      commit: (items: Parameters<DeliveryStore['commitDeliveries']>[0], done: readonly number[]) => this.outbox.commit(items, done, clock.now()),
    };
  }

  /** `resumed`: at the start, every pending delivery is tried at once (RetryStageOptions.resumed). */
  private startReceivers(config: DeliveryConfig, resumed = false): void {
    const { retry } = config.notify;
    const { clock, logger, dispatcher, mailTransport = smtpTransport } = this.deps;
    const edges: ReceiverDeps & BotDeps = { clock, logger, dispatcher, mailTransport, bot: this.deps.bot, stateDir: config.state_dir };
    this.notifiers = config.notify.receivers.map((r) => this.kinds.create(r, edges));
    this.retryStages = this.notifiers.map(
      (notifier) =>
        new RetryStage({
          notifier,
          port: this.outbox,
          policy: { baseMs: retry.base_delay, maxMs: retry.max_delay, maxAgeMs: retry.max_age },
          clock: this.deps.clock,
          random: this.deps.random,
          logger: this.deps.logger,
          onOutcome: this.deps.onOutcome,
          resumed,
        }),
    );
    for (const s of this.retryStages) s.start();
  }

  private async stopReceivers(): Promise<void> {
    await Promise.all(this.retryStages.map((s) => s.stop()));
    await Promise.all(this.notifiers.map((n) => n.close?.()));
    this.retryStages = [];
    this.notifiers = [];
  }
}
