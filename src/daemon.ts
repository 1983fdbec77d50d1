import { Registry } from 'prom-client';
import { Agent } from 'undici';
import { DEFAULT_SCENARIO_FILE, loadConfigFile, type Config, type ExchangeConfig } from './config';
import { Delivery } from './delivery';
import { ExchangeClient } from './exchange/client';
import { dialects } from './exchange/dialects/registry';
import { createApp } from './http/app';
import { Exposition } from './metrics/cache';
import type { SeriesFilter } from './metrics/exposition';
import { SILENCE_RETENTION_MS, silenceKept } from './alerts/silence';
import { compileMatcher } from './rules/match';
import { createMetrics, forgetSeries, initSeries } from './metrics/metrics';
import { listen, type Listening } from './http/server';
import { parseHostPort } from './lib/host-port';
import { systemClock, type Clock } from './lib/clock';
import type { Logger } from './lib/logger';
import { ExchangePoller, type PollFailure, type PollSuccess } from './poller/exchange-poller';
import { loadRulesFile } from './rules/load';
import type { Rule } from './rules/model';
import type { Change } from './snapshot/changes';
import type { ExchangeInput } from './http/state-view';
import { Views } from './http/views';
import type { GuardOptions } from './snapshot/guard';
import type { Snapshot } from './snapshot/model';
import { StateStore } from './store/store';
import { Engine } from './watch/engine';
import { loadScenarioFile, startSimulator, type RunningSimulator } from './simulator';
import { errorMessage } from './lib/error-message';

/** An exchange as the watcher reaches it: its base URL, and the embedded one to stop with it. */
export interface Target {
  config: ExchangeConfig;
  baseUrl: string;
  embedded?: RunningSimulator;
}

export async function reach(ex: ExchangeConfig, clock: Clock, logger: Logger, withScenario: boolean): Promise<Target> {
  if (ex.base_url !== undefined) return { config: ex, baseUrl: ex.base_url };
  const sim = ex.simulate;
  const at = (sim?.listen !== undefined ? parseHostPort(sim.listen) : undefined) ?? { host: '127.0.0.1', port: 0 };
  const scenario = withScenario ? await loadScenarioFile(sim?.scenario ?? DEFAULT_SCENARIO_FILE) : undefined;
  const embedded = await startSimulator({
    host: at.host || '0.0.0.0',
    port: at.port,
    clock,
    logger: logger.child({ component: 'simulator', exchange: ex.name }),
    ...(sim?.coins !== undefined && { coins: sim.coins }),
    ...(sim?.seed !== undefined && { seed: sim.seed }),
    ...(scenario !== undefined && { scenario }),
  });
  logger.info({ exchange: ex.name, url: embedded.url }, 'started the embedded reference exchange');
  return { config: ex, baseUrl: embedded.url, embedded };
}

export function clientFor(target: Target, clock: Clock, dispatcher: Agent, logger: Logger): ExchangeClient {
  const ex = target.config;
  return new ExchangeClient({
    exchange: ex.name,
    dialect: dialects.named(ex.dialect),
    baseUrl: target.baseUrl,
    timeoutMs: ex.timeout,
    maxBodyBytes: ex.max_body_bytes,
    retries: { max: ex.retries.max, baseDelayMs: ex.retries.base_delay, maxDelayMs: ex.retries.max_delay },
    weightLimit: { max: ex.weight_limit.max, windowMs: ex.weight_limit.window },
    ...(ex.headers !== undefined && { headers: ex.headers }),
    dispatcher,
    clock,
    onRetry: (err, attempt, delayMs) =>
      logger.debug({ exchange: ex.name, endpoint: err.endpoint, kind: err.kind, attempt, delayMs }, 'retrying a failed request'),
  });
}

function summary(s: Snapshot): { coins: number; networks: number; tickers: number } {
  let networks = 0;
  for (const c of s.coins.values()) networks += c.networkList.length;
  return { coins: s.coins.size, networks, tickers: s.tickers.size };
}

export interface DaemonDeps {
  clock?: Clock;
  logger: Logger;
  random?: () => number;
  /** Opens the state store (a seam for tests: a store whose writes fail). */
  openStore?: typeof StateStore.open;
}

/** metrics.include / metrics.exclude as one test on coin, network and symbol names. */
function seriesFilter(config: Config): SeriesFilter {
  const compile = (m: Partial<Record<'coin' | 'network' | 'symbol', string>>) =>
    new Map(Object.entries(m).map(([label, pattern]) => [label, compileMatcher(label, pattern)]));
  const include = compile(config.metrics.include);
  const exclude = compile(config.metrics.exclude);
  if (include.size === 0 && exclude.size === 0) return () => true;
  return (label, value) => (include.get(label)?.test(value) ?? true) && !(exclude.get(label)?.test(value) ?? false);
}

/** The watch lists by exchange, for the `missing` ticker condition. */
function watchLists(config: Config): Map<string, Set<string>> {
  return new Map(config.exchanges.map((e) => [e.name, new Set(e.symbols)]));
}

function guards(config: Config): Map<string, GuardOptions> {
  return new Map(config.exchanges.map((e) => [e.name, { maxShrink: e.guard.max_shrink, confirmPolls: e.guard.confirm_polls, confirmMs: e.guard.confirm_for }]));
}

export async function loadRules(config: Config, env: NodeJS.ProcessEnv): Promise<Rule[]> {
  if (config.rules_file === undefined) return [];
  const result = await loadRulesFile(config.rules_file, env);
  if (!result.ok) throw new ConfigError(result.problems);
  return result.rules;
}

/** A config or rules file that did not validate: every problem, as FILE:LINE:COL: message. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
  }
}

interface Watched {
  config: ExchangeConfig;
  target: Target;
  client: ExchangeClient;
  poller: ExchangePoller;
}

const key = (exchange: string, endpoint: string): string => `${exchange}\u0000${endpoint}`;

/** The composition root: builds every part from the config, and owns start, reload and stop. */
export class Daemon {
  /** Endpoints polled successfully at least once (readiness). */
  private readonly ready = new Set<string>();
  /** Endpoints whose last poll succeeded (spotwatch_up). */
  private readonly healthy = new Set<string>();
  /** The last poll of each exchange and endpoint, for /api/v1/state. */
  private readonly lastPoll = new Map<string, { at: string; ok: boolean; kind?: string; error?: string }>();
  private readonly watched = new Map<string, Watched>();
  private http: Listening | undefined;
  private store: StateStore | undefined;
  private engine: Engine | undefined;
  private delivery: Delivery | undefined;
  private readonly pool = new Agent({ connections: 8, keepAliveTimeout: 30_000 });
  private pruneTimer: NodeJS.Timeout | undefined;
  readonly registry = new Registry();
  private readonly metrics = createMetrics(this.registry);
  private readonly exposition: Exposition;
  /** The status page and /api/v1/state. */
  private readonly views = new Views({
    now: () => this.deps.clock.now(),
    exchanges: () => this.exchangeInputs(),
    alerts: () => this.engine?.activeAlerts().values() ?? [],
    store: () => this.store,
  });

  private constructor(
    private config: Config,
    private readonly deps: Required<DaemonDeps>,
    private readonly source: { path?: string | undefined; env: NodeJS.ProcessEnv },
  ) {
    this.exposition = new Exposition(this.registry, seriesFilter(config));
  }

  /** Starts the daemon; `path` (the config file) makes reload possible. */
  static async start(config: Config, deps: DaemonDeps, source: { path?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Daemon> {
    const daemon = new Daemon(config, { clock: systemClock, random: Math.random, openStore: (...a) => StateStore.open(...a), ...deps }, { path: source.path, env: source.env ?? process.env });
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
    this.store = this.deps.openStore(
      this.config.state_dir,
      (message, movedTo) => logger.error({ error: message, movedTo }, 'state store unreadable; moved aside, starting with empty state'),
      (rows) => {
        logger.error({ rows }, 'unreadable rows in the state store set aside (table set_aside); going on with the rest');
        for (const [table, n] of Object.entries(rows)) this.metrics.rowsSetAside.inc({ table }, n);
      },
    );
    const store = this.store;
    // Validated by the config schema.
    const { host, port } = parseHostPort(this.config.server.listen) ?? { host: '127.0.0.1', port: 9464 };
    this.http = await listen(this.app(), host, port);
    this.engine = new Engine({
      rules,
      store,
      logger,
      guards: guards(this.config),
      expectedSymbols: watchLists(this.config),
      notify: (alerts) => this.delivery?.insert(alerts),
      onChanges: (exchange, changes) => this.onChanges(exchange, changes),
      onStoreError: () => this.metrics.storeWriteErrors.inc(),
      onHistoryDropped: (rows) => this.metrics.historyDropped.inc(rows),
    });
    const engine = this.engine;
    this.delivery = new Delivery(this.config, {
      store,
      clock,
      random,
      logger,
      externalURL: this.http.url,
      activeAlerts: () => engine.activeAlerts().values(),
      onOutcome: (receiver, outcome, reason, latencyMs) => {
        this.metrics.notifications.inc({ receiver, outcome });
        if (outcome !== 'success') this.metrics.notificationsFailed.inc({ receiver, reason: reason ?? 'other' });
        if (latencyMs !== undefined) this.metrics.notificationLatency.observe({ receiver }, latencyMs / 1000);
      },
      onStoreError: () => this.metrics.storeWriteErrors.inc(),
      onDropped: (receiver) => this.metrics.notificationsDropped.inc({ receiver }),
    });
    // Alerts still firing from before a restart rejoin their groups; the notification log
    // (also restored) keeps them from being told again, and repeats keep their rhythm.
    this.delivery.resume();
    this.delivery.insert([...engine.activeAlerts().values()].filter((a) => a.status === 'firing'));
    this.delivery.start();
    initSeries(this.metrics, this.config.exchanges.map((e) => e.name), this.delivery.receivers, rules);
    logger.info({ url: this.http.url, rules: rules.length, receivers: this.delivery.receivers }, 'serving /metrics, /healthz, /readyz, /api/v1');
    this.pruneHistory();
    // Retention holds for a daemon that runs for months, not only across restarts.
    this.pruneTimer = setInterval(() => this.pruneHistory(), 3_600_000);
    this.pruneTimer.unref();
    for (const ex of this.config.exchanges) await this.startExchange(ex);
  }

  private app() {
    return createApp({
      // Ready: every exchange polled successfully, and none down now (its polls failing in a row).
      ready: () => this.config.exchanges.every((e) => this.ready.has(key(e.name, 'coins')) && this.ready.has(key(e.name, 'tickers')) && !(this.engine?.isDown(e.name) ?? false)),
      metrics: { contentType: this.registry.contentType, render: () => this.exposition.render(), renderGzip: () => this.exposition.renderGzip() },
      bearerToken: this.config.server.bearer_token,
      api: {
        alerts: () => [...(this.engine?.activeAlerts().values() ?? [])],
        changes: (q) => this.store?.queryChanges(q) ?? [],
        state: (page) => this.views.state(page),
        deadLetters: (limit, before) => this.store?.deadLetters(limit, before) ?? [],
        silences: {
          list: () => (this.store?.loadSilences() ?? []).filter((x) => silenceKept(x, this.deps.clock.now())),
          save: (silence) => {
            try {
              this.store?.saveSilence(silence);
            } catch (err) {
              this.metrics.storeWriteErrors.inc();
              throw err;
            }
            this.delivery?.refreshSilences();
          },
        },
        now: () => this.deps.clock.now(),
      },
      reload: () => this.reload(),
      statusView: () => this.views.statusView(),
      onError: (err) => this.deps.logger.error({ err }, 'HTTP request failed'),
    });
  }

  /** What the views read of each configured exchange: health, last polls, snapshot. */
  private exchangeInputs(): ExchangeInput[] {
    return this.config.exchanges.map((ex) => ({
      name: ex.name,
      up: this.healthy.has(key(ex.name, 'coins')) && this.healthy.has(key(ex.name, 'tickers')),
      polls: { coins: this.lastPoll.get(key(ex.name, 'coins')) ?? null, tickers: this.lastPoll.get(key(ex.name, 'tickers')) ?? null },
      snapshot: this.watched.get(ex.name)?.poller.snapshot(),
    }));
  }

  private async startExchange(ex: ExchangeConfig): Promise<void> {
    const { clock, logger, random } = this.deps;
    const engine = this.engine as Engine;
    const target = await reach(ex, clock, logger, true);
    const client = clientFor(target, clock, this.pool, logger);
    const initial = engine.restore(ex.name);
    if (initial !== undefined) {
      if (initial.coinsAt !== null) this.exposition.update(initial, 'coins');
      if (initial.tickersAt !== null) this.exposition.update(initial, 'tickers');
    }
    const poller = new ExchangePoller({
      exchange: ex.name,
      client,
      clock,
      random,
      intervals: { coins: ex.poll.coins, tickers: ex.poll.tickers },
      symbols: ex.symbols,
      ...(initial !== undefined && { initial }),
      onSuccess: (poll) => this.onSuccess(poll),
      onFailure: (poll) => this.onFailure(poll),
      onBug: (err) => logger.error({ err, exchange: ex.name }, 'internal error during a poll'),
    });
    this.watched.set(ex.name, { config: ex, target, client, poller });
    poller.start();
  }

  private async stopExchange(name: string): Promise<void> {
    const w = this.watched.get(name);
    if (w === undefined) return;
    this.watched.delete(name);
    await w.poller.stop();
    await w.target.embedded?.close();
    for (const endpoint of ['coins', 'tickers']) {
      this.ready.delete(key(name, endpoint));
      this.healthy.delete(key(name, endpoint));
    }
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
    this.engine?.configure({ guards: guards(this.config), expectedSymbols: watchLists(this.config) });
    const oldReceivers = this.delivery?.receivers ?? [];
    await this.delivery?.reconfigure(this.config);
    const wanted = new Map(this.config.exchanges.map((e) => [e.name, e]));
    const goneExchanges: string[] = [];
    for (const [name, w] of [...this.watched]) {
      const e = wanted.get(name);
      if (e === undefined || JSON.stringify(e) !== JSON.stringify(w.config)) await this.stopExchange(name);
      if (e === undefined) {
        this.engine?.dropExchange(name, this.deps.clock.now());
        this.exposition.drop(name);
        this.views.forget(name);
        goneExchanges.push(name);
      }
    }
    const receivers = new Set(this.delivery?.receivers ?? []);
    forgetSeries(this.metrics, { exchanges: goneExchanges, receivers: oldReceivers.filter((r) => !receivers.has(r)) });
    for (const e of this.config.exchanges) if (!this.watched.has(e.name)) await this.startExchange(e);
    initSeries(this.metrics, this.config.exchanges.map((e) => e.name), this.delivery?.receivers ?? [], rules);
    this.metrics.reloadOk.set(1);
    this.exposition.refresh();
    logger.info({ rules: rules.length, exchanges: this.config.exchanges.length }, 'configuration reloaded');
    return { ok: true };
  }

  private pruneHistory(): void {
    const now = this.deps.clock.now();
    try {
      const removed = this.store?.pruneChanges(now - this.config.history_retention) ?? 0;
      this.store?.pruneDeliveries(now - 7 * 86_400_000);
      if (removed > 0) this.deps.logger.info({ removed }, 'pruned old changes from the history');
      const silences = this.store?.pruneSilences(now - SILENCE_RETENTION_MS) ?? 0;
      if (silences > 0) {
        this.delivery?.refreshSilences();
        this.deps.logger.info({ removed: silences }, 'deleted silences expired for longer than the retention');
      }
    } catch (err) {
      this.metrics.storeWriteErrors.inc();
      this.deps.logger.error({ error: errorMessage(err) }, 'could not prune the history');
    }
  }

  private onChanges(exchange: string, changes: readonly Change[]): void {
    const logger = this.deps.logger;
    this.views.observe(exchange, changes);
    // Counted per kind: 16,000 changes of a storm, one inc each, held the loop 20-30 ms.
    const byKind = new Map<string, number>();
    for (const c of changes) byKind.set(c.kind, (byKind.get(c.kind) ?? 0) + 1);
    for (const [kind, n] of byKind) this.metrics.changes.inc({ exchange, kind }, n);
    for (const c of changes.slice(0, 50)) logger.info({ ...c, exchange }, 'change');
    if (changes.length > 50) logger.info({ exchange, more: changes.length - 50 }, 'more changes not logged one by one');
  }

  private async onSuccess(poll: PollSuccess): Promise<Snapshot> {
    const log = this.deps.logger;
    // One line per poll, however many records: a storm of broken records must not flood the log.
    if (poll.issues.length > 0) log.warn({ exchange: poll.exchange, endpoint: poll.endpoint, records: poll.issues.length, first: poll.issues.slice(0, 5) }, 'malformed records kept at their previous values');
    const { snapshot: kept, outcome } = await (this.engine as Engine).onSuccess(poll);
    const labels = { exchange: poll.exchange, endpoint: poll.endpoint };
    this.metrics.pollDuration.observe(labels, poll.durationMs / 1000);
    if (poll.issues.length > 0) {
      // A record set aside (malformed, or sent twice with different values) is a schema error of that poll.
      this.metrics.malformedRecords.inc(labels, poll.issues.length);
      this.metrics.pollErrors.inc({ ...labels, kind: 'schema' });
    }
    if (outcome === 'empty') {
      // An empty list is never taken as real: a failure of that poll, of kind `schema`.
      this.deps.logger.warn({ exchange: poll.exchange, endpoint: poll.endpoint }, 'poll failed: empty list, not taken as real');
      this.metrics.pollErrors.inc({ ...labels, kind: 'schema' });
      this.healthy.delete(key(poll.exchange, poll.endpoint));
      this.lastPoll.set(key(poll.exchange, poll.endpoint), { at: new Date(poll.at).toISOString(), ok: false, kind: 'schema', error: `${poll.endpoint}: empty list` });
      this.afterPoll(poll.exchange);
      return kept;
    }
    const accepted = outcome === 'accepted';
    this.lastPoll.set(key(poll.exchange, poll.endpoint), { at: new Date(poll.at).toISOString(), ok: accepted });
    if (accepted) {
      this.ready.add(key(poll.exchange, poll.endpoint));
      this.healthy.add(key(poll.exchange, poll.endpoint));
      this.metrics.lastSuccess.set(labels, poll.at / 1000);
      this.exposition.update(kept, poll.endpoint);
      if (poll.endpoint === 'coins') this.metrics.coins.set({ exchange: poll.exchange }, kept.coins.size);
    }
    this.afterPoll(poll.exchange);
    log.debug({ exchange: poll.exchange, endpoint: poll.endpoint, ms: poll.durationMs, bytes: poll.bytes, malformed: poll.issues.length, ...summary(kept) }, 'poll ok');
    return kept;
  }

  private onFailure(poll: PollFailure): void {
    this.deps.logger.warn({ exchange: poll.exchange, endpoint: poll.endpoint, kind: poll.error.kind, ms: poll.durationMs, error: poll.error.message }, 'poll failed');
    const labels = { exchange: poll.exchange, endpoint: poll.endpoint };
    this.metrics.pollErrors.inc({ ...labels, kind: poll.error.kind });
    this.metrics.pollDuration.observe(labels, poll.durationMs / 1000);
    this.healthy.delete(key(poll.exchange, poll.endpoint));
    this.lastPoll.set(key(poll.exchange, poll.endpoint), { at: new Date(poll.at).toISOString(), ok: false, kind: poll.error.kind, error: poll.error.message });
    this.engine?.onFailure({ ...poll, error: { kind: poll.error.kind, message: poll.error.message } });
    this.afterPoll(poll.exchange);
  }

  /** Gauges that follow every poll, successful or not. */
  private afterPoll(exchange: string): void {
    const up = this.healthy.has(key(exchange, 'coins')) && this.healthy.has(key(exchange, 'tickers'));
    this.metrics.up.set({ exchange }, up ? 1 : 0);
    this.metrics.weightUsed.set({ exchange }, this.watched.get(exchange)?.client.usedWeight() ?? 0);
    const firing = new Map<string, { alertname: string; severity: string; n: number }>();
    for (const r of this.engine?.rules() ?? []) firing.set(`${r.alert}\u0000${r.severity}`, { alertname: r.alert, severity: r.severity, n: 0 });
    for (const a of this.engine?.activeAlerts().values() ?? []) {
      if (a.status !== 'firing') continue;
      const k = `${a.labels.alertname ?? ''}\u0000${a.labels.severity ?? ''}`;
      const entry = firing.get(k) ?? { alertname: a.labels.alertname ?? '', severity: a.labels.severity ?? '', n: 0 };
      entry.n += 1;
      firing.set(k, entry);
    }
    this.metrics.alertsFiring.reset();
    for (const f of firing.values()) this.metrics.alertsFiring.set({ alertname: f.alertname, severity: f.severity }, f.n);
    for (const r of this.delivery?.receivers ?? []) this.metrics.outboxPending.set({ receiver: r }, this.delivery?.pendingDeliveries(r) ?? 0);
    const dead = this.store?.deadLetterCounts() ?? new Map<string, number>();
    for (const r of this.delivery?.receivers ?? []) this.metrics.deadLetters.set({ receiver: r }, dead.get(r) ?? 0);
  }

  /** Stops polling (abandoning requests in flight), stops the senders (what is unsent stays in the outbox), closes everything. */
  async stop(): Promise<void> {
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    await Promise.all([...this.watched.keys()].map((name) => this.stopExchange(name)));
    await this.engine?.settled();
    await this.delivery?.stop();
    await this.http?.close();
    this.store?.close();
    await this.pool.close();
  }
}
