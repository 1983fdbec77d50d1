import { Registry } from 'prom-client';
import { Agent } from 'undici';
import { loadConfigFile, type Config } from './config';
import { ConfigError } from './config/errors';
import { chainLookup, loadRules } from './compose/settings';
import { Notifications } from './notifications';
import { httpSurface } from './compose/http-surface';
import { Exposition } from './metrics/exposition';
import { storedSilences } from './compose/silences';
import { createMetrics, forgetSeries, initSeries, type Metrics } from './metrics/metrics';
import { PollMetrics } from './metrics/polls';
import { listen, type Listening } from './http/server';
import { parseHostPort } from './lib/host-port';
import { systemClock, type Clock } from './lib/clock';
import type { Logger } from './lib/logger';
import type { Rule } from './rules/model';
import type { ChainOf } from './rules/transfer';
import { transferRoutes } from './rules/evaluate-transfer';
import type { ExchangeInput } from './http/state-view';
import { Views } from './http/views';
import { StateStore } from './store/store';
import { PollObserver } from './compose/poll-observer';
import { PollMirror } from './compose/poll-mirror';
import { PollThread, type PollHost } from './compose/poll-thread';
import { Retention } from './compose/retention';
import { botContext } from './compose/bot-context';
import { startDigests } from './compose/digest';
import { notificationMeters, openMeteredStore } from './compose/metered';

export interface DaemonDeps {
  clock?: Clock;
  logger: Logger;
  random?: () => number;
  /** Opens the state store (a seam for tests: a store whose writes fail). */
  openStore?: typeof StateStore.open;
  /** Where the metrics are registered (a fresh Registry unless given). */
  registry?: Registry;
  /** The HTTP connection pool for exchanges and receivers; made (and closed at stop) by the daemon unless given. */
  dispatcher?: Agent;
  /**
   * Where the poll path runs: a worker thread (the default), or this thread, on the same
   * messages, for tests that run from the sources or inject the clock, the store or the pool.
   */
  pollHost?: 'worker' | 'inline';
}

/** How long the poll thread has to answer a question before it is taken as stalled (the families of /metrics wait far less: see Exposition). */
const ANSWER_WAIT_MS = 30_000;

/**
 * The composition root: builds every part from the config, and owns start, reload and stop.
 * The poll path (fetch, decode, step, the state's writes) runs in a thread of its own
 * (compose/poll-thread.ts); this thread serves HTTP and delivers, from what the poll thread
 * reports (compose/poll-mirror.ts).
 */
export class Daemon {
  private http: Listening | undefined;
  private store: StateStore | undefined;
  private thread: PollThread | undefined;
  private mirror: PollMirror | undefined;
  private delivery: Notifications | undefined;
  private rules: Rule[] = [];
  private chainOf: ChainOf;
  private readonly pool: Agent;
  private readonly ownsPool: boolean;
  private retention: Retention | undefined;
  /** Stops notify.digest's timer. */
  private stopDigests: (() => void) | undefined;
  readonly registry: Registry;
  private readonly metrics: Metrics;
  private readonly pollMetrics: PollMetrics;
  private readonly exposition: Exposition;
  /** The status page and /api/v1/state. */
  private readonly views = new Views({
    now: () => this.deps.clock.now(),
    exchanges: () => this.exchangeInputs(),
    alerts: () => this.mirror?.activeAlerts() ?? [],
    store: () => this.store,
    chainOf: (exchange, network) => this.chainOf(exchange, network),
    routes: () => transferRoutes(this.rules, (ex) => this.mirror?.snapshot(ex), this.chainOf),
    rules: () => this.rules,
  });
  /** Silences of the API and of chat bots: the stored ones still kept; a save is in force at once. */
  private readonly silences = storedSilences({
    store: () => this.store,
    now: () => this.deps.clock.now(),
    onStoreError: () => this.metrics.storeWriteErrors.inc(),
    inForce: () => this.delivery?.refreshSilences(),
  });

  private constructor(
    private config: Config,
    private readonly deps: Required<Omit<DaemonDeps, 'dispatcher' | 'pollHost'>> & Pick<DaemonDeps, 'dispatcher' | 'pollHost'>,
    private readonly source: { path?: string | undefined; env: NodeJS.ProcessEnv },
  ) {
    this.registry = deps.registry;
    this.metrics = createMetrics(this.registry);
    this.pollMetrics = new PollMetrics(this.metrics);
    this.ownsPool = deps.dispatcher === undefined;
    this.pool = deps.dispatcher ?? new Agent({ connections: 8, keepAliveTimeout: 30_000 });
    this.chainOf = chainLookup(config);
    this.exposition = new Exposition(this.registry, async (have) => this.thread?.ask({ q: 'families', have }, ANSWER_WAIT_MS), deps.clock);
  }

  /** Starts the daemon; `path` (the config file) makes reload possible. */
  static async start(config: Config, deps: DaemonDeps, source: { path?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Daemon> {
    const daemon = new Daemon(config, { clock: systemClock, random: Math.random, openStore: (...a) => StateStore.open(...a), registry: new Registry(), ...deps }, { path: source.path, env: source.env ?? process.env });
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
    this.store = openMeteredStore(this.deps.openStore, this.config.state_dir, logger, this.metrics, clock.now());
    const store = this.store;
    // Validated by the config schema.
    const { host, port } = parseHostPort(this.config.server.listen) ?? { host: '127.0.0.1', port: 9464 };
    this.http = await listen(this.app(), host, port);
    let ready: () => void = () => undefined;
    let failed: (err: Error) => void = () => undefined;
    const started = new Promise<void>((resolve, reject) => {
      ready = resolve;
      failed = reject;
    });
    // The alerts active when the daemon stopped: the poll thread starts from the same rows.
    const restored = [...store.loadAlerts().values()];
    this.mirror = new PollMirror(async (q, timeoutMs) => this.thread?.ask(q, timeoutMs), restored);
    const mirror = this.mirror;
    const observer = new PollObserver({
      logger,
      mirror,
      metrics: this.metrics,
      pollMetrics: this.pollMetrics,
      views: this.views,
      store: () => this.store,
      tell: (alerts, pending) => this.delivery?.insert(alerts, pending),
      ready: (error) => (error === undefined ? ready() : failed(new ConfigError([error]))),
      gauges: {
        rules: () => this.rules,
        firing: () => this.mirror?.firingCounts() ?? [],
        receivers: () => this.delivery?.receivers ?? [],
        pending: (r) => this.delivery?.pendingDeliveries(r) ?? 0,
        deadLetters: () => store.deadLetterCounts(),
      },
    });
    this.thread = new PollThread({ host: this.pollHost(), logger, onReport: (r) => observer.on(r), onExit: (error) => failed(new Error(error)) });
    const thread = this.thread;
    this.delivery = new Notifications(this.config, {
      store,
      clock,
      random: this.deps.random,
      logger,
      dispatcher: this.pool,
      externalURL: this.http.url,
      activeAlerts: () => mirror.activeAlerts(),
      bot: botContext({
        now: () => clock.now(),
        stateDir: this.config.state_dir,
        refresh: () => mirror.refresh(),
        exchanges: () => this.exchangeInputs(),
        alerts: () => mirror.activeAlerts(),
        closures: (exchange, coin, network) => this.views.closures(exchange, coin, network),
        silences: this.silences,
        onIgnored: (receiver, reason) => this.metrics.botUpdatesIgnored.inc({ receiver, reason }),
      }),
      ...notificationMeters(this.metrics),
    });
    // Alerts still firing from before a restart rejoin their groups; the notification log
    // (also restored) keeps them from being told again, and repeats keep their rhythm.
    this.delivery.resume();
    this.delivery.insert(restored.filter((a) => a.status === 'firing'));
    this.delivery.start();
    this.startDigests();
    initSeries(this.metrics, this.config.exchanges.map((e) => e.name), this.delivery.receivers, this.rules);
    this.retention = new Retention({
      store,
      clock,
      logger,
      historyMs: () => this.config.history_retention,
      onSilencesPruned: () => this.delivery?.refreshSilences(),
      onError: () => this.metrics.storeWriteErrors.inc(),
    });
    this.retention.start();
    thread.configure(this.config, this.source.env);
    await started;
    logger.info({ url: this.http.url, rules: this.rules.length, receivers: this.delivery.receivers }, 'serving /metrics, /healthz, /readyz, /api/v1');
  }

  private pollHost(): PollHost {
    if (this.deps.pollHost !== 'inline') return { kind: 'worker' };
    const { clock, random, logger } = this.deps;
    const open = this.deps.openStore;
    return { kind: 'inline', clock, random, dispatcher: this.pool, openStore: (dir) => open(dir, (message, movedTo) => logger.error({ error: message, movedTo }, 'state store unreadable; moved aside, starting with empty state')) };
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
      alive: () => this.thread?.alive() ?? true,
      refresh: () => this.mirror?.refresh() ?? Promise.resolve(),
      alerts: () => this.mirror?.activeAlerts() ?? [],
      store: () => this.store,
      exchanges: () => this.exchangeInputs(),
      chainOf: (exchange, network) => this.chainOf(exchange, network),
      reload: () => this.reload(),
    });
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
    this.config = { ...next, server: { ...next.server, listen: old.server.listen }, state_dir: old.state_dir };
    this.rules = rules;
    this.chainOf = chainLookup(this.config);
    this.thread?.configure(this.config, this.source.env);
    const oldReceivers = this.delivery?.receivers ?? [];
    await this.delivery?.reconfigure(this.config);
    const wanted = new Set(this.config.exchanges.map((e) => e.name));
    const goneExchanges = old.exchanges.map((e) => e.name).filter((name) => !wanted.has(name));
    for (const name of goneExchanges) {
      this.mirror?.forget(name);
      this.views.forget(name);
    }
    const receivers = new Set(this.delivery?.receivers ?? []);
    forgetSeries(this.metrics, { exchanges: goneExchanges, receivers: oldReceivers.filter((r) => !receivers.has(r)) });
    initSeries(this.metrics, this.config.exchanges.map((e) => e.name), this.delivery?.receivers ?? [], rules);
    this.metrics.reloadOk.set(1);
    this.exposition.refresh();
    logger.info({ rules: rules.length, exchanges: this.config.exchanges.length }, 'configuration reloaded');
    return { ok: true };
  }

  /** The daily digests (notify.digest), through the notification path. */
  private startDigests(): void {
    const delivery = this.delivery as Notifications;
    this.stopDigests = startDigests({
      clock: this.deps.clock,
      logger: this.deps.logger,
      config: () => this.config,
      outages: (q) => this.store?.queryOutages(q) ?? [],
      snapshots: () => this.config.exchanges.map((ex) => ({ name: ex.name, symbols: ex.symbols, snapshot: this.mirror?.snapshot(ex.name) })),
      refresh: () => this.mirror?.refresh() ?? Promise.resolve(),
      send: (deliveries) => delivery.sendDeliveries(deliveries),
      externalURL: () => delivery.externalURL,
    });
  }

  /** Stops polling (abandoning requests in flight), stops the senders (what is unsent stays in the outbox), closes everything. */
  async stop(): Promise<void> {
    this.stopDigests?.();
    this.retention?.stop();
    await this.thread?.stop();
    await this.delivery?.stop();
    await this.http?.close();
    this.store?.close();
    await this.store?.settled();
    if (this.ownsPool) await this.pool.close();
  }
}
