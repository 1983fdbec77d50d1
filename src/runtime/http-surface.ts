import type { Alert } from '../alerts/alert';
import type { Config } from '../config';
import { createApp } from '../http/app';
import type { ExchangeInput } from '../http/state-view';
import type { Views } from '../http/views';
import type { Clock } from '../lib/clock';
import type { Logger } from '../lib/logger';
import type { Exposition } from '../metrics/exposition';
import type { NoticeLists } from '../notices/book-json';
import type { StateStore } from '../store/store';
import { historySource } from './history-source';
import type { StoredSilences } from './stored-silences';

/** What the daemon's HTTP surface reads: each a getter, since reload replaces the config and the parts come up one by one. */
export interface HttpSources {
  config(): Config;
  clock: Clock;
  logger: Logger;
  contentType: string;
  exposition: Exposition;
  views: Views;
  silences: StoredSilences;
  /** Ready: every exchange polled successfully, and none down now. */
  ready(): boolean;
  /** The poll path is alive (its thread answers). */
  alive(): boolean;
  /** Brings the exchanges' snapshots up to date before a view reads them. */
  refresh(): Promise<void>;
  alerts(): Iterable<Alert>;
  /** Each watched exchange's notice lists, as the engine last reported them. */
  notices(): Iterable<NoticeLists>;
  store(): StateStore | undefined;
  exchanges(): ExchangeInput[];
  chainOf(exchange: string, network: string): string | null;
  reload(): Promise<{ ok: true } | { ok: false; problems: string[] }>;
}

/** The express app of the daemon: /metrics, health, the API, history, feeds, badges and the status page. */
export function httpSurface(src: HttpSources) {
  return createApp({
    ready: () => src.ready(),
    alive: () => src.alive(),
    refresh: () => src.refresh(),
    metrics: { contentType: src.contentType, render: () => src.exposition.render(), renderGzip: () => src.exposition.renderGzip() },
    bearerToken: src.config().server.bearer_token,
    api: {
      alerts: () => [...src.alerts()],
      changes: (q) => src.store()?.queryChanges(q) ?? [],
      state: (page) => src.views.state(page),
      deadLetters: (limit, before) => src.store()?.deadLetters(limit, before) ?? [],
      silences: src.silences,
      now: () => src.clock.now(),
    },
    notices: () => src.notices(),
    reload: () => src.reload(),
    statusView: (query) => src.views.statusView(query),
    history: historySource({ store: () => src.store(), exchanges: () => src.exchanges(), now: () => src.clock.now(), chainOf: (exchange, network) => src.chainOf(exchange, network), notices: () => src.notices() }),
    onError: (err) => src.logger.error({ err }, 'HTTP request failed'),
  });
}
