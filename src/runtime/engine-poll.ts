/**
 * The poll path, in the engine (engine.ts): from the configuration, each exchange's client and
 * its two polling loops; every answer (or failure) through `step`; each step's writes to the
 * state store, then what it decided: to the main thread as reports (protocol.ts), to delivery
 * what to tell (a call). It also answers what the main thread asks: snapshot parts for the
 * views, and the exchanges' metric families for /metrics.
 */
import type { Alert } from '../alerts/alert';
import { alertsOf } from '../alerts/lifecycle';
import type { Config, ExchangeConfig } from '../config';
import type { ExchangeClient } from '../exchange/client';
import { errorMessage } from '../lib/error-message';
import type { Logger } from '../lib/logger';
import { NETWORK_FAMILIES, renderNetworks, renderTickers, TICKER_FAMILIES, type FamilyName, type SeriesFilter } from '../metrics/render';
import { fetchInput, type Fetched } from '../poll/fetch';
import { startLoop, type Loop } from '../poll/loop';
import { NOTHING, PollPath } from '../poll/path';
import { Persist, type Written } from '../poll/persist';
import { PER_MESSAGE, type Answers, type FamilyTexts, type PartDelta, type PollReport, type Question, type Report } from './protocol';
import { configure, exchangeOf, initialState, type PollState, type Restored, type StepSettings } from '../poll/state';
import { DOWN_AFTER_FAILURES, type StepInput, type StepResult } from '../poll/step';
import { networkCount, type Endpoint, type Snapshot } from '../snapshot/model';
import type { StateStore } from '../store/store';
import type { ThreadParts } from './thread';
import { loadRules, seriesFilter, stepSettings } from './settings';
import { clientFor, embeddedProblem, reach, type Target } from './targets';
import { startNoticeReader } from './notice-reader';
import { recorderFor } from './recording';
import { followStoreFile, refusable, STORE_CHECK_MS } from './store-file';
import type { Recorder } from '../poll/recording/recorder';
import { bookLists, type NoticeLists } from '../notices/book-json';
import type { Announcement, AnnouncementKind } from '../notices/model';
import { systemScheduler } from '../lib/scheduler';

export interface PollServiceDeps extends Omit<ThreadParts, 'openStore'> {
  /** Where reports go (the main thread). */
  post(report: Report): void;
  /** What a step decided to tell, in decision order, with the id of each one's pending notification (written with the step's state; undefined: none, or the write failed). */
  tell(alerts: readonly Alert[], pending: readonly (number | undefined)[]): void;
  logger: Logger;
}

interface Watched {
  config: ExchangeConfig;
  target: Target;
  client: ExchangeClient;
  loops: Loop[];
  /** Its notice reads (none: notices off, or a dialect without sources). */
  notices?: { stop(): Promise<void> } | undefined;
}

const ENDPOINTS: readonly Endpoint[] = ['coins', 'tickers'];
const FAMILIES: Record<Endpoint, readonly FamilyName[]> = { coins: NETWORK_FAMILIES, tickers: TICKER_FAMILIES };
/** Issues named in a poll's report (and its log line): the rest are counted. */
const FIRST_ISSUES = 5;

export class PollService {
  private store: StateStore | undefined;
  private path: PollPath | undefined;
  private keep: SeriesFilter = () => true;
  private readonly watched = new Map<string, Watched>();
  /** Per exchange, each part's version: a new one whenever the part's map changed. */
  private readonly versions = new Map<string, Record<Endpoint, number>>();
  private version = 0;
  /** Per exchange and part, what the main thread was last sent of it (parts deltas are made against it). */
  private readonly sent = new Map<string, { version: number; records: ReadonlyMap<string, object> }>();
  /** Whether the last write failed: logged once per streak. */
  private storeFailing = false;
  /** Why the poll path's writes are refused: the store's file was deleted, and is written again at the next check. */
  private storeGone: string | undefined;
  private stopStoreChecks: (() => void) | undefined;
  private persist: Persist | undefined;
  /** Every input of step, recorded for spotwatch replay (run --record, record.dir). */
  private recorder: Recorder | undefined;

  constructor(private readonly deps: PollServiceDeps) {}

  /** The state of the poll path (undefined before the first configuration). */
  private get state(): PollState | undefined {
    return this.path?.state;
  }

  /** An exchange's snapshot as the last step left it (undefined: not watched). */
  snapshot(exchange: string): Snapshot | undefined {
    return this.state?.exchanges.get(exchange)?.snapshot;
  }

  /** An exchange's notice lists as the last step left them (undefined: not watched). */
  noticeLists(exchange: string): NoticeLists | undefined {
    const ex = this.state?.exchanges.get(exchange);
    return ex === undefined ? undefined : bookLists(ex.notices);
  }

  /** The active alerts, as the last step left them (the sources of inhibition); undefined before the first configuration. */
  activeAlerts(): Iterable<Alert> | undefined {
    const state = this.state;
    return state === undefined ? undefined : alertsOf(state.alerts);
  }

  /** A configuration on `store` (the engine's one connection): the first starts, later ones reload; why it could not be put in force, if it could not. */
  async configure(config: Config, env: Record<string, string | undefined>, store: StateStore, restored: readonly Alert[]): Promise<string | undefined> {
    const { logger } = this.deps;
    let rules;
    try {
      rules = await loadRules(config, env);
    } catch (err) {
      // The main thread checked them; a file changed meanwhile (or unreadable now) is refused here.
      if (this.path !== undefined) logger.error({ error: errorMessage(err) }, 'rules not loaded; the engine keeps the configuration it had');
      return `rules not loaded: ${errorMessage(err)}`;
    }
    const settings = stepSettings(config, rules);
    this.keep = seriesFilter(config);
    if (this.path === undefined) {
      this.open(config, settings, store, restored);
      for (const ex of config.exchanges) {
        // At the start, an embedded exchange that cannot start fails the start (one line, exit 1), as `spotwatch simulate` does.
        const failed = await this.watch(ex, true);
        if (failed !== undefined) return failed;
      }
      this.postBooks();
      return undefined;
    }
    this.path.state = configure(this.path.state, settings);
    this.recorder = recorderFor(this.recorder, config, this.path.state, this.deps.clock.now(), logger);
    const wanted = new Map(config.exchanges.map((e) => [e.name, e]));
    for (const [name, w] of [...this.watched]) {
      const e = wanted.get(name);
      if (e !== undefined && JSON.stringify(e) === JSON.stringify(w.config)) continue;
      await this.unwatch(name);
      if (e === undefined) {
        this.decide({ type: 'drop', exchange: name }, this.deps.clock.now(), this.deps.clock.monotonic());
        this.versions.delete(name);
      }
    }
    for (const e of config.exchanges) if (!this.watched.has(e.name)) await this.watch(e);
    this.postBooks();
    return undefined;
  }

  /** Every watched exchange's notice book, whole (the main thread's copy: at the start, the books the store kept). */
  private postBooks(): void {
    const state = this.state;
    if (state === undefined) return;
    for (const name of this.watched.keys()) this.deps.post({ t: 'notices', exchange: name, lists: bookLists(exchangeOf(state, name).notices), firstRead: {} });
  }

  /** The store and the state at the start: each exchange resumes from what the store holds. */
  private open(config: Config, settings: StepSettings, store: StateStore, alerts: readonly Alert[]): void {
    this.store = store;
    const restored = new Map<string, Restored>(config.exchanges.map((e) => [e.name, { snapshot: store.loadSnapshot(e.name), samples: store.loadHistory(e.name), notices: store.loadNotices(e.name) }]));
    this.persist = new Persist(refusable(store, () => this.storeGone));
    this.path = new PollPath(initialState(settings, restored, alerts), this.persist);
    this.recorder = recorderFor(undefined, config, this.path.state, this.deps.clock.now(), this.deps.logger);
    this.stopStoreChecks = (this.deps.scheduler ?? systemScheduler).every(this.deps.storeCheckMs ?? STORE_CHECK_MS, () => this.checkStoreFile());
  }

  /**
   * The store's file (or its WAL) deleted while in use (see store-file.ts): noticed, it is written
   * again at once from what the deleted one holds (every thread's writes), so that a stop or a
   * crash from then on loses nothing. The poll path's writes are still refused until the next
   * check (a failed write of every exchange's state: StoreFailing fires, and lasts long enough to
   * be told); what waited here goes with the next write after that (StoreFailing resolves).
   */
  private checkStoreFile(): void {
    const { store, path, persist } = this;
    const { logger, clock } = this.deps;
    if (store === undefined || path === undefined || persist === undefined) return;
    const found = store.fileState();
    if (this.storeGone !== undefined) {
      // Written again (the store moved to the new file: kept), the poll path writes from now on; else try again.
      if (found === 'kept') this.storeGone = undefined;
      else this.writeAgain(store);
      return;
    }
    if (found === 'kept') return;
    if (found === 'replaced') {
      // Another file put there (not by this daemon, which writes it from here): written to from now on, each part whole.
      followStoreFile(store, logger, 'poll');
      persist.rewriteWhole();
      return;
    }
    if (found === 'gone') {
      this.storeGone = `the state store file ${store.file} was deleted while in use`;
      logger.error({ file: store.file }, 'state store file deleted while in use; a new one is written at once from what the daemon holds, the poll path\'s writes wait in memory until the next check');
    } else {
      this.storeGone = `the state store's WAL (${store.file}-wal or -shm) was deleted while in use`;
      logger.error({ file: store.file }, 'state store WAL file deleted while in use (the database file kept); a new store file is written at once from what the daemon holds, the poll path\'s writes wait in memory until the next check');
    }
    const now = clock.now();
    for (const exchange of [...path.state.exchanges.keys()]) this.decide({ type: 'written', exchange, error: this.storeGone }, now, clock.monotonic());
    this.writeAgain(store);
  }

  /** The new file written from what the deleted one holds (StateStore.recreate); false when it cannot be yet (tried again at the next check). */
  private writeAgain(store: StateStore): boolean {
    const { logger } = this.deps;
    try {
      const rows = store.recreate();
      logger.warn({ file: store.file, rows }, 'state store file written again from what the daemon held; the poll path writes to it from the next check');
      return true;
    } catch (err) {
      logger.error({ file: store.file, error: errorMessage(err) }, 'cannot write a new state store file yet; tried again at the next check');
      return false;
    }
  }

  /**
   * At a stop, after the last poll: a store file deleted and not yet written again is written now,
   * and what waited in memory (refused writes: the file deleted, a full disk) is written, so that
   * the next start finds everything this daemon knew.
   */
  private saveBeforeStop(): void {
    const { store, path, persist } = this;
    const { logger, clock } = this.deps;
    if (store === undefined || path === undefined || persist === undefined) return;
    const found = store.fileState();
    if ((found === 'gone' || found === 'wal-gone') && !this.writeAgain(store)) return;
    if (found === 'replaced' && this.storeGone === undefined) {
      followStoreFile(store, logger, 'poll');
      persist.rewriteWhole();
    }
    this.storeGone = undefined;
    if (!persist.waiting) return;
    const written = persist.write(NOTHING);
    this.wrote(written);
    if (written.error !== undefined) {
      logger.error({ error: written.error }, 'the state store still cannot be written: what waited in memory is lost at this stop');
      return;
    }
    // Each exchange's StoreFailing resolves with that write, as at a poll (its resolution is told after the restart).
    const now = clock.now();
    for (const exchange of [...path.state.exchanges.keys()]) this.decide({ type: 'written', exchange, error: undefined }, now, clock.monotonic());
  }

  /** Starts watching `ex`; why its embedded exchange could not start, if it could not (logged after the start: the others go on). */
  private async watch(ex: ExchangeConfig, atStart = false): Promise<string | undefined> {
    const { clock, logger, random, dispatcher } = this.deps;
    let target: Target;
    try {
      target = await reach(ex, clock, logger, true);
    } catch (err) {
      if (!atStart) logger.error({ exchange: ex.name, error: errorMessage(err) }, 'cannot start the embedded reference exchange');
      return embeddedProblem(ex, err);
    }
    const client = clientFor(target, clock, dispatcher, logger);
    const w: Watched = { config: ex, target, client, loops: [] };
    this.watched.set(ex.name, w);
    if (!this.versions.has(ex.name)) this.versions.set(ex.name, { coins: ++this.version, tickers: ++this.version });
    w.loops = ENDPOINTS.map((endpoint) =>
      startLoop({
        intervalMs: ex.poll[endpoint],
        jitter: 0.1,
        clock,
        random,
        run: (signal) => this.poll(w, endpoint, signal),
        onError: (err) => logger.error({ err, exchange: ex.name }, 'internal error during a poll'),
      }),
    );
    w.notices = startNoticeReader({
      exchange: ex,
      baseUrl: target.baseUrl,
      client,
      clientOf: (baseUrl) => clientFor(target, clock, dispatcher, logger, baseUrl),
      clock,
      random,
      logger,
      book: () => exchangeOf(this.state as PollState, ex.name).notices,
      decide: (source, read) => {
        if (this.watched.get(ex.name) !== w) return;
        this.decide({ type: 'notices', exchange: ex.name, source: source.name, read, options: { vanished: source.vanished ?? 'judge' } }, clock.now(), clock.monotonic());
      },
      failed: (source, error) => this.deps.post({ t: 'notice-failed', exchange: ex.name, source: source.name, kind: error.kind }),
    });
  }

  private async unwatch(name: string): Promise<void> {
    const w = this.watched.get(name);
    if (w === undefined) return;
    this.watched.delete(name);
    await Promise.all(w.loops.map((l) => l.stop()));
    await w.notices?.stop();
    await w.client.close();
    await w.target.embedded?.close();
  }

  /** One poll of one endpoint: its answer or its failure through step, then reported. */
  private async poll(w: Watched, endpoint: Endpoint, signal: AbortSignal): Promise<void> {
    const { clock } = this.deps;
    const exchange = w.config.name;
    const startedAt = clock.monotonic();
    let fetched: Fetched;
    try {
      fetched = await fetchInput(w.client, exchange, endpoint, w.config.symbols, exchangeOf(this.state as PollState, exchange).snapshot, signal);
    } catch (err) {
      if (signal.aborted) return;
      throw err;
    }
    const { input, bytes, failure: failed } = fetched;
    if (this.watched.get(exchange) !== w) return;
    const at = clock.now();
    const mono = clock.monotonic();
    const result = this.decide(input, at, mono, fetched);
    const issues = input.type === 'answer' ? input.answer.issues : [];
    const after = exchangeOf(this.state as PollState, exchange);
    const s = after.snapshot;
    const poll: PollReport = {
      exchange,
      endpoint,
      outcome: result.outcome === 'accepted' || result.outcome === 'held' || result.outcome === 'empty' ? result.outcome : 'failed',
      at,
      durationMs: mono - startedAt,
      bytes,
      issues: issues.length,
      firstIssues: issues.slice(0, FIRST_ISSUES),
      ...(failed !== undefined && { kind: failed.kind, error: failed.message }),
      ...(result.outcome === 'empty' && { kind: 'schema', error: `${endpoint}: empty list` }),
      coins: s.coins.size,
      networks: networkCount(s.coins),
      tickers: s.tickers.size,
      down: after.failures.coins >= DOWN_AFTER_FAILURES || after.failures.tickers >= DOWN_AFTER_FAILURES,
      weightUsed: w.client.usedWeight(),
      versions: this.versions.get(exchange) ?? { coins: 0, tickers: 0 },
    };
    this.deps.post({ t: 'polled', poll });
  }

  /** One input through the poll path (step, its write, the write's outcome), then reported. */
  private decide(input: StepInput, now: number, mono: number, fetched?: Fetched): StepResult {
    const path = this.path as PollPath;
    const before = path.state;
    const { inputs, results, writes } = path.decide(input, now, mono);
    this.recorder?.record(before, inputs, now, { texts: fetched?.texts, kind: fetched?.failure?.kind });
    this.bump(before, path.state);
    results.forEach((r, i) => {
      const written = writes[i];
      if (written !== undefined) this.wrote(written);
      this.report(r, written);
    });
    return results[0] as StepResult;
  }

  /** A write's outcome: counted by the main thread, logged once per streak of failures. */
  private wrote({ error, dropped }: Written): void {
    const { logger, post } = this.deps;
    post({ t: 'wrote', error, dropped });
    if (dropped > 0) logger.error({ rows: dropped }, 'change history rows dropped: the store has failed for longer than memory holds them');
    if (error !== undefined && !this.storeFailing) logger.error({ error }, 'cannot write the state store; watching and notifying go on, changes are kept in memory until it can');
    if (error === undefined && this.storeFailing) logger.info('state store writable again; what waited in memory is written');
    this.storeFailing = error !== undefined;
  }

  /** What a step decided, to the main thread, in order: the alerts it keeps, the changes, then what to tell. */
  private report(r: StepResult, written: Written | undefined): void {
    const { post, logger } = this.deps;
    for (const line of r.effects.log) logger[line.level](line.fields, line.msg);
    const w = r.effects.write;
    if (w !== undefined && (w.alerts.set.length > 0 || w.alerts.removed.length > 0)) {
      for (let i = 0; i < Math.max(w.alerts.set.length, w.alerts.removed.length); i += PER_MESSAGE) {
        post({ t: 'alerts', set: w.alerts.set.slice(i, i + PER_MESSAGE), removed: w.alerts.removed.slice(i, i + PER_MESSAGE) });
      }
    }
    if (w?.notices !== undefined) post({ t: 'notices', exchange: w.notices.exchange, lists: bookLists(w.notices.book), firstRead: byKind(r.effects.firstRead ?? []) });
    const exchange = r.changes[0]?.exchange;
    for (let i = 0; exchange !== undefined && i < r.changes.length; i += PER_MESSAGE) post({ t: 'changes', exchange, changes: r.changes.slice(i, i + PER_MESSAGE) });
    if (r.effects.tell.length === 0) return;
    // The ids of the pending notifications the write kept, by told alert.
    const ids = new Map<Alert, number>();
    w?.pending.forEach((a, k) => {
      const id = written?.pending[k];
      if (id !== undefined) ids.set(a, id);
    });
    this.deps.tell(r.effects.tell, r.effects.tell.map((a) => ids.get(a)));
  }

  /** A new version for each part whose map a step changed. */
  private bump(before: PollState, after: PollState): void {
    for (const [name, ex] of after.exchanges) {
      const was = before.exchanges.get(name)?.snapshot;
      const v = this.versions.get(name);
      if (v === undefined) continue;
      if (was?.coins !== ex.snapshot.coins || was.coinsAt === null) v.coins = ++this.version;
      if (was?.tickers !== ex.snapshot.tickers || was.tickersAt === null) v.tickers = ++this.version;
    }
  }

  answer(q: unknown): Answers[keyof Answers] {
    const question = q as Question;
    const state = this.state;
    if (question.q === 'parts') {
      const parts: PartDelta[] = [];
      for (const [name, v] of this.versions) {
        const s = state?.exchanges.get(name)?.snapshot;
        if (s === undefined) continue;
        for (const part of ENDPOINTS) if (question.have[name]?.[part] !== v[part]) parts.push(this.delta(s, part, v[part], question.have[name]?.[part]));
      }
      return { parts } satisfies Answers['parts'];
    }
    const texts: FamilyTexts[] = [];
    for (const [name, v] of this.versions) {
      const s = state?.exchanges.get(name)?.snapshot;
      if (s === undefined) continue;
      for (const part of ENDPOINTS) {
        if (question.have[name]?.[part] === v[part]) continue;
        const lines = part === 'coins' ? renderNetworks(s, this.keep) : renderTickers(s, this.keep);
        texts.push({ exchange: name, part, version: v[part], families: FAMILIES[part].map((f) => lines[f] ?? '') });
      }
    }
    return { exchanges: [...this.versions.keys()], texts } satisfies Answers['families'];
  }

  /** A part as what changed since the version the main thread has (whole when it has another). */
  private delta(s: Snapshot, part: Endpoint, version: number, have: number | undefined): PartDelta {
    const key = `${s.exchange}\u0000${part}`;
    const records: ReadonlyMap<string, object> = part === 'coins' ? s.coins : s.tickers;
    const last = this.sent.get(key);
    const whole = last === undefined || last.version !== have;
    const changed: object[] = [];
    const gone: string[] = [];
    for (const [k, r] of records) if (whole || last.records.get(k) !== r) changed.push(r);
    if (!whole) for (const k of last.records.keys()) if (!records.has(k)) gone.push(k);
    this.sent.set(key, { version, records });
    const unknown = part === 'coins' ? s.unknownCoins : s.unknownSymbols;
    return { exchange: s.exchange, part, version, at: part === 'coins' ? s.coinsAt : s.tickersAt, changed: changed as PartDelta['changed'], gone, whole, unknown: unknown === undefined ? undefined : [...unknown] };
  }

  /** Stops polling and the recorder, and writes what waited (the engine closes the store). */
  async stop(): Promise<void> {
    this.stopStoreChecks?.();
    await Promise.all([...this.watched.keys()].map((name) => this.unwatch(name)));
    await this.recorder?.close();
    this.saveBeforeStop();
  }
}

function byKind(announcements: readonly Announcement[]): Partial<Record<AnnouncementKind, number>> {
  const n: Partial<Record<AnnouncementKind, number>> = {};
  for (const a of announcements) n[a.kind] = (n[a.kind] ?? 0) + 1;
  return n;
}
