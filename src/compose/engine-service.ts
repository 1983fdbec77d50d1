/**
 * The engine: everything the daemon does besides serving HTTP, on one thread with one store
 * connection: the poll path (each exchange's loops, `step`, its writes, the notice reads, the
 * recorder) and delivery (groups, outbox, retries, receivers, chat bots). What a step decides
 * to tell goes to delivery by a call; the active alerts delivery inhibits by are the poll path's.
 * The main thread commands (EngineCommand) and hears what it shows (EngineReport).
 */
import type { Config } from '../config';
import { errorMessage } from '../lib/error-message';
import type { Delivery } from '../notify/notifier';
import type { Report } from '../poll/protocol';
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

export class EngineService implements Service<EngineCommand> {
  private store: StateStore | undefined;
  private readonly poll: PollService;
  private readonly delivery: DeliveryService;

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
    this.store ??= this.parts.openStore(config.state_dir);
    try {
      await this.delivery.configure(config, externalURL, this.store);
    } catch (err) {
      this.io.post({ t: 'failed', error: errorMessage(err) });
      return;
    }
    await this.poll.configure(config, env, this.store);
  }

  answer(question: unknown): unknown {
    return this.poll.answer(question);
  }

  /** Polling stops first (what it told is taken, a deleted store file written again), then delivery (what is unsent stays in the outbox); then the store closes. */
  async stop(): Promise<void> {
    await this.poll.stop();
    await this.delivery.stop();
    this.store?.close();
  }
}

/** The engine on its thread's end of the channel to the main thread (`port`); `done` once it has stopped. */
export function serveEngine(port: Port, level: string, parts: ThreadParts, done: () => Promise<void> | void = () => undefined): void {
  serve<EngineCommand, EngineReport>(port, level, (io) => new EngineService(parts, io), done);
}
