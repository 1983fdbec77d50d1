/**
 * The engine's notice reads (notices.md): every `notices.poll`, each source of an exchange
 * read through the exchange's client (a Statuspage through a client of its own host), the read
 * handed to `step`. A read that fails changes nothing: it is logged once per run of failures of
 * that source and counted by the caller (section 6).
 */
import type { ExchangeConfig } from '../config';
import type { ExchangeClient } from '../exchange/client';
import type { Clock } from '../lib/clock';
import { errorMessage } from '../lib/error-message';
import type { Logger } from '../lib/logger';
import { sleep } from '../lib/sleep';
import { openWindows, type NoticeBook } from '../notices/book';
import { pacer, readSource, type SourceRead } from '../notices/fetch';
import type { NoticeRead } from '../notices/model';
import { NoticeError, type NoticeSource } from '../notices/source';
import { startLoop, type Loop } from '../poll/loop';
import { exchangeNoticeSources } from './settings';

export interface NoticeReaderDeps {
  readonly exchange: ExchangeConfig;
  /** Where the exchange is reached (its base_url, or the embedded reference exchange's URL). */
  readonly baseUrl: string;
  readonly client: ExchangeClient;
  /** A client of another host (a Statuspage). */
  clientOf(baseUrl: string): ExchangeClient;
  readonly clock: Clock;
  readonly random: () => number;
  readonly logger: Logger;
  /** The exchange's notice book as step holds it now. */
  book(): NoticeBook;
  /** A read, for step. */
  decide(source: NoticeSource, read: NoticeRead): void;
  /** A read that failed (for the metric). */
  failed(source: NoticeSource, error: NoticeError): void;
}

/** Starts reading an exchange's notices; undefined when it has none (notices: false, or a dialect without sources). */
export function startNoticeReader(deps: NoticeReaderDeps): { stop(): Promise<void> } | undefined {
  const notices = deps.exchange.notices;
  if (notices === false) return undefined;
  const sources = exchangeNoticeSources(deps.exchange, deps.baseUrl);
  if (sources.length === 0) return undefined;
  const own = new Map<string, ExchangeClient>();
  const clientOf = (s: NoticeSource): ExchangeClient => {
    if (s.baseUrl === undefined) return deps.client;
    let c = own.get(s.baseUrl);
    if (c === undefined) own.set(s.baseUrl, (c = deps.clientOf(s.baseUrl)));
    return c;
  };
  const failing = new Set<string>();
  const failed = (source: NoticeSource, error: NoticeError): void => {
    deps.failed(source, error);
    if (!failing.has(source.name)) deps.logger.warn({ exchange: deps.exchange.name, source: source.name, kind: error.kind, error: error.message }, 'notice read failed');
    failing.add(source.name);
  };
  const loops: Loop[] = sources.map((source) => {
    // A gap holds from one read to the next too: a short notices.poll never asks OKX twice in 5 s.
    const pace = source.gapMs === undefined ? undefined : pacer(source.gapMs, () => deps.clock.monotonic(), sleep);
    return startLoop({
      intervalMs: notices.poll,
      jitter: 0.1,
      clock: deps.clock,
      random: deps.random,
      onError: (err) => deps.logger.error({ err, exchange: deps.exchange.name, source: source.name }, 'internal error during a notice read'),
      run: async (signal) => {
        // The windows a follow-up asks about when the list no longer has them, in this same read.
        const open = openWindows(deps.book(), source.name);
        let got: SourceRead;
        try {
          got = await readSource(clientOf(source), source, { open }, () => deps.clock.now(), { signal, ...(pace !== undefined && { pace }) });
        } catch (err) {
          if (signal.aborted) return;
          failed(source, err instanceof NoticeError ? err : new NoticeError('schema', source.name, `${source.name}: ${errorMessage(err)}`));
          return;
        }
        if (got.failed !== undefined) failed(source, got.failed);
        else if (failing.delete(source.name)) deps.logger.info({ exchange: deps.exchange.name, source: source.name }, 'notice read succeeded again');
        deps.decide(source, got.read);
      },
    });
  });
  return {
    async stop() {
      await Promise.all(loops.map((l) => l.stop()));
      await Promise.all([...own.values()].map((c) => c.close()));
    },
  };
}
