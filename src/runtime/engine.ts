/**
 * The engine: everything the daemon does besides serving HTTP, on one thread with one store
 * connection: the poll path (each exchange's loops, `step`, its writes, the notice reads, the
 * recorder: engine-poll.ts) and delivery (groups, outbox, retries, receivers, chat bots:
 * engine-delivery.ts), the retention of the history and the daily digests. What a step decides
 * to tell goes to delivery by a call; the active alerts delivery inhibits by are the poll
 * path's. It runs in a worker (engine-worker.ts; running from the sources, the build's), or, for
 * tests that inject a clock, a store or a scheduler, in the main thread on the same messages
 * (protocol.ts).
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config';
import type { Alert } from '../alerts/alert';
import type { Silence } from '../alerts/silence';
import { errorMessage } from '../lib/error-message';
import type { Logger } from '../lib/logger';
import { systemScheduler } from '../lib/scheduler';
import type { Instant } from '../lib/time-base';
import type { StateStore } from '../store/store';
import { startDigests } from './daily-digest';
import { DeliveryService } from './engine-delivery';
import { PollService } from './engine-poll';
import type { EngineCommand, EngineQuestion, EngineReport } from './protocol';
import { Retention } from './retention';
import { serve, ServiceThread, type Port, type Service, type ServiceIO, type ServiceThreadOptions, type ThreadParts } from './thread';

export class EngineService implements Service<EngineCommand> {
  private store: StateStore | undefined;
  private config: Config | undefined;
  private externalURL = '';
  private readonly poll: PollService;
  private readonly delivery: DeliveryService;
  private retention: Retention | undefined;
  /** The alerts the store kept, active when the daemon stopped: the sources of inhibition until the poll path starts from them. */
  private restored: readonly Alert[] = [];
  private stopDigests: (() => void) | undefined;

  constructor(
    private readonly parts: ThreadParts,
    private readonly io: ServiceIO<EngineReport>,
  ) {
    const { openStore: _open, ...own } = parts;
    this.poll = new PollService({ ...own, post: io.post, logger: io.logger, tell: (alerts, pending) => this.delivery.tell(alerts, pending) });
    // Before the poll path has its state (delivery starts first, and a restart's groups flush at once), the alerts the store kept inhibit.
    this.delivery = new DeliveryService({ ...own, ...io, activeAlerts: () => this.poll.activeAlerts() ?? this.restored });
  }

  async handle(command: EngineCommand): Promise<void> {
    const error = await this.configure(command.config as Config, command.env, command.externalURL);
    this.io.post(error === undefined ? { t: 'ready' } : { t: 'failed', error });
  }

  /**
   * Delivery first (it hears what the poll path tells by this configuration from its first
   * step on), then polling; why it could not be put in force, if it could not. At the start a
   * delivery that cannot start stops there; at a reload each part that takes the configuration
   * keeps it, and the other keeps the one it had.
   */
  private async configure(config: Config, env: Record<string, string | undefined>, externalURL: string): Promise<string | undefined> {
    const first = this.store === undefined;
    let store: StateStore;
    try {
      store = this.store ??= this.parts.openStore(config.state_dir);
    } catch (err) {
      return `the state store cannot be opened: ${errorMessage(err)}`;
    }
    if (first) this.restored = [...store.loadAlerts().values()];
    this.config = config;
    this.externalURL = externalURL;
    const problems: string[] = [];
    try {
      await this.delivery.configure(config, externalURL, store, this.restored);
    } catch (err) {
      if (first) return errorMessage(err);
      this.io.logger.error({ error: errorMessage(err) }, 'delivery did not take the new configuration; it keeps the one it had');
      problems.push(`delivery: ${errorMessage(err)}`);
    }
    if (first) this.startHousekeeping(store);
    const polling = await this.poll.configure(config, env, store, this.restored);
    if (polling !== undefined) problems.push(polling);
    return problems.length === 0 ? undefined : problems.join('; ');
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
      onHistoryPruned: () => post({ t: 'pruned' }),
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

  /** Stores a silence of the API and puts it in force at once (as a chat bot's is). */
  private saveSilence(silence: Silence): { error?: string } {
    try {
      this.delivery.saveSilence(silence);
      return {};
    } catch (err) {
      return { error: errorMessage(err) };
    }
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

/**
 * Where the engine runs: a worker thread (the daemon), anchoring its clock where the main
 * thread's is (`anchor`, time-base.ts anchoredClock: one time line for both threads), or this
 * thread, with parts given (tests).
 */
export type ThreadsHost = { kind: 'worker'; anchor: Instant; storeCheckMs?: number | undefined } | { kind: 'inline'; parts: ThreadParts };

export type EngineThread = ServiceThread<EngineCommand, EngineReport>;

export function startEngine(host: ThreadsHost, logger: Logger, on: Pick<ServiceThreadOptions<EngineReport>, 'onReport' | 'onAsk' | 'onExit'>): EngineThread {
  const place: ServiceThreadOptions<never>['host'] =
    host.kind === 'worker' ? { kind: 'worker', file: engineWorkerFile(), workerData: { anchor: host.anchor, storeCheckMs: host.storeCheckMs } } : { kind: 'inline', start: (port, level) => serveEngine(port, level, host.parts) };
  return new ServiceThread({ name: 'engine', host: place, logger, ...on });
}

/**
 * The engine worker's file: the build's, beside this one. Running from the sources (the tests),
 * the engine runs the build of the same sources (a worker thread cannot load TypeScript), which
 * must be as new as every source file: a stale build would test old code, so it is refused.
 */
export function engineWorkerFile(): string {
  if (!__filename.endsWith('.ts')) return join(__dirname, 'engine-worker.js');
  const root = join(__dirname, '..', '..');
  const built = join(root, 'dist', 'runtime', 'engine-worker.js');
  builtChecked ??= staleBuild(built, join(root, 'src'));
  if (builtChecked !== '') throw new Error(builtChecked);
  return built;
}

let builtChecked: string | undefined;

/** Why the build cannot stand for the sources ('' when it can). */
function staleBuild(built: string, src: string): string {
  const at = statSync(built, { throwIfNoEntry: false })?.mtimeMs;
  if (at === undefined) return `no build at ${built}: run \`npm run build\` (the engine runs the build when the daemon runs from the sources)`;
  const newer = readdirSync(src, { recursive: true, encoding: 'utf8' }).find((f) => f.endsWith('.ts') && statSync(join(src, f)).mtimeMs > at);
  return newer === undefined ? '' : `the build is older than src/${newer}: run \`npm run build\` (the engine runs the build when the daemon runs from the sources)`;
}
