import { Registry } from 'prom-client';
import { Agent } from 'undici';
import { loadConfigFile, type Config } from './config';
import { ConfigError } from './config/errors';
import { chainLookup, guards, loadRules, seriesFilter, watchLists } from './compose/settings';
import { WatchedExchanges } from './compose/watched';
import { PollHealth } from './poll/health';
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
import type { ExchangeInput } from './http/state-view';
import { Views } from './http/views';
import { StateStore } from './store/store';
import { buildPollPath } from './poll/build';
import { DaemonPollObserver } from './compose/poll-observer';
import { Retention } from './compose/retention';
import { botContext } from './compose/bot-context';
import { startDigests } from './compose/digest';
import { notificationMeters, openMeteredStore } from './compose/metered';
import type { Engine } from './poll/engine';
import type { PollPath } from './poll/path';
import type { StateWriter } from './poll/writer';

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
}

/** The composition root: builds every part from the config, and owns start, reload and stop. */
export class Daemon {
  /** Readiness, spotwatch_up and the last poll of each endpoint. */
  private readonly health = new PollHealth();
  private watched: WatchedExchanges | undefined;
  private http: Listening | undefined;
  private store: StateStore | undefined;
  private engine: Engine | undefined;
  private writer: StateWriter | undefined;
  private path: PollPath | undefined;
  private delivery: Notifications | undefined;
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
    alerts: () => this.engine?.activeAlerts().values() ?? [],
    store: () => this.store,
    chainOf: (exchange, network) => this.engine?.chainOf(exchange, network) ?? null,
    routes: () => this.engine?.transferRoutes() ?? [],
    rules: () => this.engine?.rules() ?? [],
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
    private readonly deps: Required<Omit<DaemonDeps, 'dispatcher'>> & Pick<DaemonDeps, 'dispatcher'>,
    private readonly source: { path?: string | undefined; env: NodeJS.ProcessEnv },
  ) {
    this.registry = deps.registry;
    this.metrics = createMetrics(this.registry);
    this.pollMetrics = new PollMetrics(this.metrics);
    this.ownsPool = deps.dispatcher === undefined;
    this.pool = deps.dispatcher ?? new Agent({ connections: 8, keepAliveTimeout: 30_000 });
    this.exposition = new Exposition(this.registry, seriesFilter(config), deps.clock);
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
    const { clock, logger, random } = this.deps;
    const rules = await loadRules(this.config, this.source.env);
    this.store = openMeteredStore(this.deps.openStore, this.config.state_dir, logger, this.metrics, clock.now());
    const store = this.store;
    // Validated by the config schema.
    const { host, port } = parseHostPort(this.config.server.listen) ?? { host: '127.0.0.1', port: 9464 };
    this.http = await listen(this.app(), host, port);
    const parts = buildPollPath({
      rules,
      store,
      logger,
      clock,
      guards: guards(this.config),
      expectedSymbols: watchLists(this.config),
      chainOf: chainLookup(this.config),
      notify: (alerts) => this.delivery?.insert(alerts),
      observer: new DaemonPollObserver({
        logger,
        health: this.health,
        metrics: this.metrics,
        pollMetrics: this.pollMetrics,
        exposition: this.exposition,
        views: this.views,
        gauges: {
          weightUsed: (exchange) => this.watched?.usedWeight(exchange) ?? 0,
          rules: () => this.engine?.rules() ?? [],
          firing: () => this.engine?.firingCounts() ?? [],
          receivers: () => this.delivery?.receivers ?? [],
          pending: (r) => this.delivery?.pendingDeliveries(r) ?? 0,
          deadLetters: () => store.deadLetterCounts(),
        },
      }),
      onStoreError: () => this.metrics.storeWriteErrors.inc(),
      onHistoryDropped: (rows) => this.metrics.historyDropped.inc(rows),
    });
    ({ engine: this.engine, writer: this.writer, path: this.path } = parts);
    const engine = parts.engine;
    this.delivery = new Notifications(this.config, {
      store,
      clock,
      random,
      logger,
      dispatcher: this.pool,
      externalURL: this.http.url,
      activeAlerts: () => engine.activeAlerts().values(),
      bot: botContext({
        now: () => clock.now(),
        stateDir: this.config.state_dir,
        exchanges: () => this.exchangeInputs(),
        alerts: () => engine.activeAlerts().values(),
        closures: (exchange, coin, network) => this.views.closures(exchange, coin, network),
        silences: this.silences,
        onIgnored: (receiver, reason) => this.metrics.botUpdatesIgnored.inc({ receiver, reason }),
      }),
      ...notificationMeters(this.metrics),
    });
    // Alerts still firing from before a restart rejoin their groups; the notification log
    // (also restored) keeps them from being told again, and repeats keep their rhythm.
    this.delivery.resume();
    this.delivery.insert([...engine.activeAlerts().values()].filter((a) => a.status === 'firing'));
    this.delivery.start();
    this.startDigests();
    initSeries(this.metrics, this.config.exchanges.map((e) => e.name), this.delivery.receivers, rules);
    logger.info({ url: this.http.url, rules: rules.length, receivers: this.delivery.receivers }, 'serving /metrics, /healthz, /readyz, /api/v1');
    this.retention = new Retention({
      store,
      clock,
      logger,
      historyMs: () => this.config.history_retention,
      onSilencesPruned: () => this.delivery?.refreshSilences(),
      onError: () => this.metrics.storeWriteErrors.inc(),
    });
    this.retention.start();
    this.watched = new WatchedExchanges({ clock, logger, random, pool: this.pool, engine, store, path: parts.path, exposition: this.exposition, health: this.health });
    for (const ex of this.config.exchanges) await this.watched.start(ex);
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
      ready: () => this.config.exchanges.every((e) => this.health.ready(e.name) && !(this.engine?.isDown(e.name) ?? false)),
      alerts: () => this.engine?.activeAlerts().values() ?? [],
      store: () => this.store,
      exchanges: () => this.exchangeInputs(),
      chainOf: (exchange, network) => this.engine?.chainOf(exchange, network) ?? null,
      reload: () => this.reload(),
    });
  }

  /** What the views read of each configured exchange: health, last polls, snapshot. */
  private exchangeInputs(): ExchangeInput[] {
    return this.config.exchanges.map((ex) => ({
      name: ex.name,
      up: this.health.up(ex.name),
      polls: this.health.lastPolls(ex.name),
      snapshot: this.path?.current(ex.name),
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
    this.exposition.setFilter(seriesFilter(this.config));
    this.engine?.setRules(rules);
    this.engine?.configure({ guards: guards(this.config), expectedSymbols: watchLists(this.config), chainOf: chainLookup(this.config) });
    const oldReceivers = this.delivery?.receivers ?? [];
    await this.delivery?.reconfigure(this.config);
    const wanted = new Map(this.config.exchanges.map((e) => [e.name, e]));
    const goneExchanges: string[] = [];
    const watched = this.watched as WatchedExchanges;
    for (const name of watched.names()) {
      const e = wanted.get(name);
      if (e === undefined || JSON.stringify(e) !== JSON.stringify(watched.config(name))) await watched.stop(name);
      if (e === undefined) {
        this.path?.drop(name, this.deps.clock.now());
        this.exposition.drop(name);
        this.views.forget(name);
        goneExchanges.push(name);
      }
    }
    const receivers = new Set(this.delivery?.receivers ?? []);
    forgetSeries(this.metrics, { exchanges: goneExchanges, receivers: oldReceivers.filter((r) => !receivers.has(r)) });
    for (const e of this.config.exchanges) if (!watched.has(e.name)) await watched.start(e);
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
      snapshots: () => this.config.exchanges.map((ex) => ({ name: ex.name, symbols: ex.symbols, snapshot: this.path?.current(ex.name) })),
      send: (deliveries) => delivery.sendDeliveries(deliveries),
      externalURL: () => delivery.externalURL,
    });
  }

  /** Stops polling (abandoning requests in flight), stops the senders (what is unsent stays in the outbox), closes everything. */
  async stop(): Promise<void> {
    this.stopDigests?.();
    this.retention?.stop();
    await this.watched?.stopAll();
    await this.writer?.settled();
    await this.delivery?.stop();
    await this.http?.close();
    this.store?.close();
    await this.store?.settled();
    if (this.ownsPool) await this.pool.close();
  }
}
