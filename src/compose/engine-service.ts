/**
 * The engine: everything the daemon does besides serving HTTP, on one thread with one store
 * connection: the poll path (each exchange's loops, `step`, its writes, the notice reads, the
 * recorder) and delivery (groups, outbox, retries, receivers, chat bots). What a step decides
 * to tell goes to delivery by a call; the active alerts delivery inhibits by are the poll path's.
 * The engine also keeps the history (retention) and sends the daily digests. The main thread
 * commands (EngineCommand), asks (EngineQuestion) and hears what it shows (EngineReport).
 */
import type { Config } from '../config';
import { errorMessage } from '../lib/error-message';
import type { Delivery } from '../notify/notifier';
import type { Question, Report } from '../poll/protocol';
import type { Silence } from '../alerts/silence';
import { systemScheduler } from '../lib/scheduler';
import { startDigests } from './daily-digest';
import { Retention } from './retention';
import type { StateStore } from '../store/store';
import { DeliveryService, type DeliveryReport } from './delivery-service';
import { PollService } from './poll-service';
import type { Port } from './channel';
import { serve, type Service, type ServiceIO, type ThreadParts } from './service-thread';

/** Main thread -> engine. */
export type EngineCommand =
  /** The configuration to run by (the first one starts; later ones are reloads); `externalURL` is the HTTP surface's. */
  | { t: 'configure'; config: unknown; env: Record<string, string | undefined>; externalURL: string }
  /** The silences changed (the API, retention): what mutes is read again. */
  | { t: 'silences' }
  /** Notifications made outside the groups (the daily digest). */
  | { t: 'send'; deliveries: Delivery[] };

/** Engine -> main thread: the poll path's reports and delivery's. */
export type EngineReport = Report | DeliveryReport;

/** Main thread -> engine, answered: a silence of the API to store and put in force (its answer: `{ error }` when the store refused it). */
export type EngineQuestion = Question | { q: 'save-silence'; silence: Silence };

export class EngineService implements Service<EngineCommand> {
  private store: StateStore | undefined;
  private config: Config | undefined;
  private externalURL = '';
  private readonly poll: PollService;
  private readonly delivery: DeliveryService;
  private retention: Retention | undefined;
  private stopDigests: (() => void) | undefined;

  constructor(
    private readonly parts: ThreadParts,
    private readonly io: ServiceIO<EngineReport>,
  ) {
    const { openStore: _open, ...own } = parts;
    this.poll = new PollService({ ...own, post: io.post, logger: io.logger, tell: (alerts, pending) => this.delivery.tell(alerts, pending) });
    this.delivery = new DeliveryService({ ...own, ...io, activeAlerts: () => this.poll.activeAlerts() });
  }

  async handle(command: EngineCommand): Promise<void> {
    switch (command.t) {
      case 'configure':
        return this.configure(command.config as Config, command.env, command.externalURL);
      case 'silences':
        return this.delivery.refreshSilences();
      case 'send':
        return this.delivery.send(command.deliveries);
    }
  }

  /**
   * Delivery first (it hears what the poll path tells by this configuration from its first
   * step on), then polling; `ready`, or `failed` with why (at a reload, each part that took it
   * keeps it).
   */
  private async configure(config: Config, env: Record<string, string | undefined>, externalURL: string): Promise<void> {
    const first = this.store === undefined;
    const store = (this.store ??= this.parts.openStore(config.state_dir));
    this.config = config;
    this.externalURL = externalURL;
    try {
      await this.delivery.configure(config, externalURL, store);
    } catch (err) {
      this.io.post({ t: 'failed', error: errorMessage(err) });
      return;
    }
    if (first) this.startHousekeeping(store);
    await this.poll.configure(config, env, store);
  }

  /** Retention of the history and the daily digests, on the engine's clock and scheduler. */
  private startHousekeeping(store: StateStore): void {
    const { clock, scheduler = systemScheduler } = this.parts;
    const { logger, post } = this.io;
    const config = (): Config => this.config as Config;
    this.retention = new Retention({
      store,
      clock,
      logger,
      historyMs: () => config().history_retention,
      onSilencesPruned: () => this.delivery.refreshSilences(),
      onError: () => post({ t: 'counted', what: 'store_error' }),
      scheduler,
    });
    this.retention.start();
    this.stopDigests = startDigests({
      clock,
      logger,
      config,
      outages: (q) => store.queryOutages(q),
      snapshots: () => config().exchanges.map((ex) => ({ name: ex.name, symbols: ex.symbols, snapshot: this.poll.snapshot(ex.name) })),
      notices: () => config().exchanges.flatMap((ex) => this.poll.noticeLists(ex.name) ?? []),
      send: (deliveries) => this.delivery.send(deliveries),
      externalURL: () => this.externalURL,
    }, scheduler);
  }

  answer(question: unknown): unknown {
    const q = question as EngineQuestion;
    if (q.q === 'save-silence') return this.saveSilence(q.silence);
    return this.poll.answer(q);
  }

  /** Stores a silence of the API and puts it in force at once. */
  private saveSilence(silence: Silence): { error?: string } {
    try {
      this.store?.saveSilence(silence);
    } catch (err) {
      this.io.post({ t: 'counted', what: 'store_error' });
      return { error: errorMessage(err) };
    }
    this.delivery.refreshSilences();
    return {};
  }

  /** Polling stops first (what it told is taken, a deleted store file written again), then delivery (what is unsent stays in the outbox); then the store closes. */
  async stop(): Promise<void> {
    this.stopDigests?.();
    this.retention?.stop();
    await this.poll.stop();
    await this.delivery.stop();
    this.store?.close();
  }
}

/** The engine on its thread's end of the channel to the main thread (`port`); `done` once it has stopped. */
export function serveEngine(port: Port, level: string, parts: ThreadParts, done: () => Promise<void> | void = () => undefined): void {
  serve<EngineCommand, EngineReport>(port, level, (io) => new EngineService(parts, io), done);
}
