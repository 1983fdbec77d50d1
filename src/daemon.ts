import { Registry } from 'prom-client';
import { Agent } from 'undici';
import { loadConfigFile, type Config } from './config';
import { ConfigError } from './config/errors';
import { chainLookup, loadRules, noticeSourceNames } from './runtime/settings';
import { httpSurface } from './runtime/http-surface';
import { Exposition } from './metrics/exposition';
import { storedSilences, type StoredSilences } from './runtime/stored-silences';
import { createMetrics, forgetSeries, initSeries, type Metrics } from './metrics/metrics';
import { PollMetrics } from './metrics/polls';
import { listen, type Listening } from './http/server';
import { parseHostPort } from './lib/host-port';
import { systemClock, type Clock } from './lib/clock';
import { anchorOf, anchoredClock, type Instant } from './lib/time-base';
import type { Logger } from './lib/logger';
import { errorMessage } from './lib/error-message';
import type { Answers } from './runtime/protocol';
import type { Rule } from './rules/model';
import type { ChainOf } from './rules/transfer';
import { transferRoutes } from './rules/evaluate-transfer';
import type { ExchangeInput } from './http/state-view';
import { Views } from './http/views';
import { StateStore } from './store/store';
import { acquireStateDirLock, thisProcess, type StateDirLock } from './store/lock';
import { ReadModel, ReportIntake } from './runtime/read-model';
import type { NoticeLists } from './notices/book-json';
import { startEngine, type EngineThread, type ThreadsHost } from './runtime/engine';
import { botReads } from './runtime/chat-bots';
import { openMeteredStore } from './runtime/open-store';
import { followStoreFile, keepStateDirLock, STORE_CHECK_MS } from './runtime/store-file';
import { BOT_READS, isDeliveryReport, type DeliveryReport, type EngineQuestion } from './runtime/protocol';
import { systemScheduler, type Scheduler } from './lib/scheduler';

export interface DaemonDeps {
  clock?: Clock;
  logger: Logger;
  random?: () => number;
  /** Opens the state store (a seam for tests: a store whose writes fail). */
  openStore?: typeof StateStore.open;
  /** How often each thread looks at the store's file, to notice it deleted (STORE_CHECK_MS unless given). */
  storeCheckMs?: number;
  /** What runs the daemon's repeating work in this thread and, inline, in the services (the system's timers unless given). */
  scheduler?: Scheduler;
  /** Where the metrics are registered (a fresh Registry unless given). */
  registry?: Registry;
  /**
   * Where the engine (the poll path and delivery) runs: a worker thread (the default; running from
   * the sources, the build's), or this thread, on the same messages, for tests that inject a
   * clock, a store or a scheduler (which cannot cross to another thread).
   */
  threads?: 'worker' | 'inline';
}

/** Where the configuration came from, and what the command line sets over it (at the start and at every reload). */
export interface DaemonSource {
  /** The config file (makes reload possible). */
  path?: string | undefined;
  env?: NodeJS.ProcessEnv;
  /** `run --record DIR`: over `record.dir`. */
  recordDir?: string | undefined;
}

function withFlags(config: Config, source: DaemonSource): Config {
  return source.recordDir === undefined ? config : { ...config, record: { ...config.record, dir: source.recordDir } };
}

/** How long the engine has to answer a question before it is taken as stalled (the families of /metrics wait far less: see Exposition). */
const ANSWER_WAIT_MS = 30_000;
/** How long a silence of the API waits for the engine to store it. */
const SAVE_WAIT_MS = 10_000;
/** How long a reload waits for the engine to take the new configuration. */
const CONFIGURE_WAIT_MS = 30_000;

/**
 * The composition root: builds every part from the config, and owns start, reload and stop.
 * The engine (the poll path: fetch, decode, step, the state's writes; delivery: groups, outbox,
 * receivers) runs in a thread of its own (runtime/engine.ts); this thread serves HTTP, from
 * what the engine reports (runtime/read-model.ts), and reads the store's history.
 */
export class Daemon {
  private http: Listening | undefined;
  private store: StateStore | undefined;
  /** state_dir's lock: one daemon per state store. */
  private lock: StateDirLock | undefined;
  /** Stops the main thread's look at the store's file. */
  private stopStoreChecks: (() => void) | undefined;
  private engine: EngineThread | undefined;
  private mirror: ReadModel | undefined;
  private rules: Rule[] = [];
  private chainOf: ChainOf;
  /** The HTTP connection pool of the threads when they run in this one (tests). */
  private pool: Agent | undefined;
  /** Who waits for the engine to take a configuration (its next `ready` or `failed`), in order. */
  private readonly configuring: ((error?: string) => void)[] = [];
  readonly registry: Registry;
  private readonly metrics: Metrics;
  private readonly pollMetrics: PollMetrics;
  private readonly exposition: Exposition;
  /** The status page and /api/v1/state. */
  private readonly views = new Views({
    now: () => this.deps.clock.now(),
    exchanges: () => this.exchangeInputs(),
    alerts: () => this.mirror?.refreshedAlerts() ?? [],
    store: () => this.store,
    chainOf: (exchange, network) => this.chainOf(exchange, network),
    routes: () => transferRoutes(this.rules, (ex) => this.mirror?.snapshot(ex), this.chainOf),
    rules: () => this.rules,
    notices: () => this.noticeLists(),
  });
  /** Silences of the API: the stored ones still kept (read here); a save is the engine's (it writes, and puts it in force at once). */
  private readonly silences: StoredSilences = {
    list: () => storedSilences({ store: () => this.store, now: () => this.deps.clock.now(), onStoreError: () => undefined, inForce: () => undefined }).list(),
    save: async (silence) => {
      const answer = (await this.engine?.ask({ q: 'save-silence', silence } satisfies EngineQuestion, SAVE_WAIT_MS)) as { error?: string } | undefined;
      if (answer === undefined) throw new Error('the engine did not answer in time; the silence was not saved');
      if (answer.error !== undefined) throw new Error(answer.error);
    },
  };

  private constructor(
    private config: Config,
    private readonly deps: Required<Omit<DaemonDeps, 'threads'>> & Pick<DaemonDeps, 'threads'>,
    private readonly source: DaemonSource & { env: NodeJS.ProcessEnv },
    /** Where this process's time line is anchored (deps.clock is anchored there; so are the threads'). */
    private readonly anchor: Instant,
  ) {
    this.registry = deps.registry;
    this.metrics = createMetrics(this.registry);
    this.pollMetrics = new PollMetrics(this.metrics);
    this.chainOf = chainLookup(config);
    this.exposition = new Exposition(this.registry, async (have) => this.engine?.ask({ q: 'families', have }, ANSWER_WAIT_MS) as Promise<Answers['families'] | undefined>, deps.clock);
  }

  /** Starts the daemon; `path` (the config file) makes reload possible. */
  static async start(config: Config, deps: DaemonDeps, source: DaemonSource = {}): Promise<Daemon> {
    // One time line for the whole run: the wall clock now, then monotonic time (time-base.ts anchoredClock).
    const clock = deps.clock ?? systemClock;
    const anchor = anchorOf(clock);
    const daemon = new Daemon(
      withFlags(config, source),
      { random: Math.random, openStore: (...a) => StateStore.open(...a), registry: new Registry(), storeCheckMs: STORE_CHECK_MS, scheduler: systemScheduler, ...deps, clock: anchoredClock(clock, anchor) },
      { ...source, env: source.env ?? process.env },
      anchor,
    );
    try {
      await daemon.boot();
    } catch (err) {
      await daemon.stop();
      throw err;
    }
    return daemon;
  }

  /** The address of the HTTP surface (metrics, health, API). */
  get url(): string | undefined {
    return this.http?.url;
  }

  private async boot(): Promise<void> {
    const { clock, logger } = this.deps;
    this.rules = await loadRules(this.config, this.source.env);
    this.lock = acquireStateDirLock(this.config.state_dir, thisProcess());
    if (this.lock.tookOver !== undefined) logger.warn({ lock: this.lock.file, holder: this.lock.tookOver }, 'took over the state_dir lock of a spotwatch that no longer runs');
    this.store = openMeteredStore(this.deps.openStore, this.config.state_dir, logger, this.metrics, clock.now());
    const store = this.store;
    // Validated by the config schema.
    const { host, port } = parseHostPort(this.config.server.listen) ?? { host: '127.0.0.1', port: 9464 };
    this.http = await listen(this.app(), host, port);
    let exited: (error: string) => void = () => undefined;
    const ended = new Promise<never>((_, reject) => (exited = (error) => reject(new Error(error))));
    ended.catch(() => undefined);
    // The alerts active when the daemon stopped: the engine starts from the same rows.
    this.mirror = new ReadModel(async (q, timeoutMs) => this.engine?.ask(q, timeoutMs), store.loadAlerts().values());
    const mirror = this.mirror;
    const observer = new ReportIntake({
      logger,
      mirror,
      metrics: this.metrics,
      pollMetrics: this.pollMetrics,
      views: this.views,
      store: () => this.store,
      ready: (error) => this.configuring.shift()?.(error),
      gauges: {
        rules: () => this.rules,
        firing: () => this.mirror?.firingCounts() ?? [],
      },
    });
    this.engine = startEngine(this.threadsHost(), logger, {
      onReport: (r) => (isDeliveryReport(r) ? this.delivered(r) : observer.on(r)),
      onAsk: (q) => this.botAsked(q),
      onExit: exited,
    });
    const configured = this.configure();
    // Before the engine's first report is taken (this thread reads none until it waits below).
    initSeries(this.metrics, this.config.exchanges.map((e) => e.name), this.receivers(), this.rules, noticeSourceNames(this.config));
    this.stopStoreChecks = this.deps.scheduler.every(this.deps.storeCheckMs, () => {
      keepStateDirLock(this.lock, logger);
      followStoreFile(this.store, logger, 'main');
    });
    await Promise.race([configured, ended]);
    logger.info({ url: this.http.url, rules: this.rules.length, receivers: this.receivers() }, 'serving /metrics, /healthz, /readyz, /api/v1');
  }

  private threadsHost(): ThreadsHost {
    if (this.deps.threads !== 'inline') return { kind: 'worker', anchor: this.anchor, storeCheckMs: this.deps.storeCheckMs };
    const { clock, random, logger } = this.deps;
    const open = this.deps.openStore;
    this.pool = new Agent({ connections: 8, keepAliveTimeout: 30_000 });
    return { kind: 'inline', parts: { clock, random, dispatcher: this.pool, storeCheckMs: this.deps.storeCheckMs, scheduler: this.deps.scheduler, openStore: (dir) => open(dir, (message, movedTo) => logger.error({ error: message, movedTo }, 'state store unreadable; moved aside, starting with empty state')) } };
  }

  private receivers(): string[] {
    return this.config.notify.receivers.map((r) => r.name);
  }

  /** The external URL notifications link to. */
  private externalURL(): string {
    return this.config.server.external_url ?? this.http?.url ?? '';
  }

  /** Hands the engine the configuration; resolves once it is in force (rejects with a ConfigError when it cannot be). */
  private configure(): Promise<void> {
    const engine = this.engine as EngineThread;
    return new Promise((resolve, reject) => {
      this.configuring.push((error) => (error === undefined ? resolve() : reject(new ConfigError([error]))));
      engine.post({ t: 'configure', config: this.config, env: this.source.env, externalURL: this.externalURL() });
    });
  }

  /** What delivery reports: delivery outcomes (metrics), what waits. */
  private delivered(report: DeliveryReport): void {
    const m = this.metrics;
    switch (report.t) {
      case 'outcome':
        m.notifications.inc({ receiver: report.receiver, outcome: report.outcome });
        if (report.outcome !== 'success') m.notificationsFailed.inc({ receiver: report.receiver, reason: report.reason ?? 'other' });
        if (report.latencyMs !== undefined) m.notificationLatency.observe({ receiver: report.receiver }, report.latencyMs / 1000);
        return;
      case 'counted':
        if (report.what === 'store_error') m.storeWriteErrors.inc();
        else if (report.what === 'dropped') m.notificationsDropped.inc({ receiver: report.receiver });
        else m.botUpdatesIgnored.inc({ receiver: report.receiver, reason: report.reason });
        return;
      case 'outbox':
        for (const [receiver, n] of Object.entries(report.pending)) m.outboxPending.set({ receiver }, n);
        for (const [receiver, n] of Object.entries(report.dead)) m.deadLetters.set({ receiver }, n);
        return;
    }
  }

  /** What a chat bot's /status and /closed read (the engine asks before each command). */
  private async botAsked(question: unknown): Promise<unknown> {
    if ((question as typeof BOT_READS).q !== BOT_READS.q) return undefined;
    await this.mirror?.refresh();
    return botReads({ exchanges: () => this.exchangeInputs(), alerts: () => this.mirror?.refreshedAlerts() ?? [], closures: (exchange, coin, network) => this.views.closures(exchange, coin, network), notices: () => this.noticeLists(), now: () => this.deps.clock.now() });
  }

  private app() {
    return httpSurface({
      config: () => this.config,
      clock: this.deps.clock,
      logger: this.deps.logger,
      contentType: this.registry.contentType,
      exposition: this.exposition,
      views: this.views,
      silences: this.silences,
      ready: () => this.config.exchanges.every((e) => (this.mirror?.health.ready(e.name) ?? false) && !(this.mirror?.isDown(e.name) ?? false)),
      alive: () => this.engine?.alive() ?? true,
      refresh: () => this.mirror?.refresh() ?? Promise.resolve(),
      alerts: () => this.mirror?.activeAlerts() ?? [],
      notices: () => this.noticeLists(),
      store: () => this.store,
      exchanges: () => this.exchangeInputs(),
      chainOf: (exchange, network) => this.chainOf(exchange, network),
      reload: () => this.reload(),
    });
  }

  /** Each configured exchange's notice lists, in the config's order (those the engine has reported). */
  private noticeLists(): NoticeLists[] {
    return this.config.exchanges.flatMap((ex) => this.mirror?.notices(ex.name) ?? []);
  }

  /** What the views read of each configured exchange: health, last polls, snapshot (as of the mirror's last refresh). */
  private exchangeInputs(): ExchangeInput[] {
    const mirror = this.mirror;
    return this.config.exchanges.map((ex) => ({
      name: ex.name,
      up: mirror?.health.up(ex.name) ?? false,
      polls: mirror?.health.lastPolls(ex.name) ?? { coins: null, tickers: null },
      snapshot: mirror?.snapshot(ex.name),
    }));
  }

  /**
   * Re-reads the config and the rules (SIGHUP, POST /-/reload). An invalid file is rejected
   * with its problems and the old configuration stays in force; state, firing alerts and the
   * outbox carry over.
   */
  async reload(): Promise<{ ok: true } | { ok: false; problems: string[] }> {
    const { logger } = this.deps;
    const fail = (problems: string[]): { ok: false; problems: string[] } => {
      this.metrics.reloadOk.set(0);
      for (const p of problems) logger.error({ problem: p }, 'reload rejected; the old configuration stays in force');
      return { ok: false, problems };
    };
    if (this.source.path === undefined) return fail(['this daemon was started without a config file; nothing to reload']);
    const loaded = await loadConfigFile(this.source.path, this.source.env);
    if (!loaded.ok) return fail(loaded.problems);
    let rules: Rule[];
    try {
      rules = await loadRules(loaded.config, this.source.env);
    } catch (err) {
      if (err instanceof ConfigError) return fail(err.problems);
      throw err;
    }
    const next = loaded.config;
    const old = this.config;
    if (next.server.listen !== old.server.listen || next.state_dir !== old.state_dir) {
      logger.warn('server.listen and state_dir take effect at the next restart');
    }
    this.config = withFlags({ ...next, server: { ...next.server, listen: old.server.listen }, state_dir: old.state_dir }, this.source);
    this.rules = rules;
    this.chainOf = chainLookup(this.config);
    const oldReceivers = old.notify.receivers.map((r) => r.name);
    let cancelWait = (): void => undefined;
    try {
      await Promise.race([this.configure(), new Promise((_, reject) => (cancelWait = this.deps.scheduler.after(CONFIGURE_WAIT_MS, () => reject(new Error('the engine did not take the configuration in time')), { keepAlive: false })))]);
    } catch (err) {
      logger.error({ error: errorMessage(err) }, 'the engine did not take all of the new configuration');
    } finally {
      cancelWait();
    }
    const wanted = new Set(this.config.exchanges.map((e) => e.name));
    const goneExchanges = old.exchanges.map((e) => e.name).filter((name) => !wanted.has(name));
    for (const name of goneExchanges) {
      this.mirror?.forget(name);
      this.views.forget(name);
    }
    const receivers = new Set(this.receivers());
    forgetSeries(this.metrics, { exchanges: goneExchanges, receivers: oldReceivers.filter((r) => !receivers.has(r)) });
    initSeries(this.metrics, this.config.exchanges.map((e) => e.name), this.receivers(), rules, noticeSourceNames(this.config));
    this.metrics.reloadOk.set(1);
    this.exposition.refresh();
    logger.info({ rules: rules.length, exchanges: this.config.exchanges.length }, 'configuration reloaded');
    return { ok: true };
  }

  /** Stops polling (abandoning requests in flight), stops the senders (what is unsent stays in the outbox), closes everything. */
  async stop(): Promise<void> {
    this.stopStoreChecks?.();
    await this.engine?.stop();
    await this.http?.close();
    this.store?.close();
    await this.pool?.close();
    this.lock?.release();
  }
}
