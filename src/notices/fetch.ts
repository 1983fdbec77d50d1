/**
 * One read of one notice source: its planned requests through the exchange's client (or the
 * client of its own host), each answer decoded, the reads joined. Any failure is a NoticeError
 * of a kind the caller counts, and the whole read fails: never a partial read (notices.md
 * section 6).
 */
import type { Request } from '../exchange/dialect';
import { ExchangeError, type FailureKind } from '../exchange/errors';
import type { NoticeRead } from './model';
import { NoticeError, type KnownWindows, type NoticeFailureKind, type NoticeSource } from './source';

/** What a source's read needs of a client (ExchangeClient.fetchNotice). */
export interface NoticeFetcher {
  fetchNotice(request: Request, signal?: AbortSignal): Promise<string>;
}

const KINDS: Readonly<Record<FailureKind, NoticeFailureKind>> = {
  timeout: 'timeout',
  connect: 'connect',
  http_3xx: 'http',
  http_4xx: 'http',
  http_5xx: 'http',
  banned: 'http',
  rate_limited: 'rate_limited',
  body_too_large: 'body_too_large',
  invalid_json: 'schema',
  schema: 'schema',
};

/** The client's error as the source's. */
export function noticeErrorOf(source: string, err: unknown): unknown {
  if (err instanceof ExchangeError) return new NoticeError(KINDS[err.kind], source, `${source}: ${err.message}`);
  return err;
}

/** Waits `ms` (rejects when `signal` aborts): the gap a source asks between its requests. */
export type Wait = (ms: number, signal?: AbortSignal) => Promise<void>;

/** Reads `source`: every request it plans given `known`, `gapMs` apart, decoded at `now()` as each answer arrives. */
export async function readSource(fetcher: NoticeFetcher, source: NoticeSource, known: KnownWindows, now: () => number, signal?: AbortSignal, wait?: Wait): Promise<NoticeRead> {
  const reads: NoticeRead[] = [];
  for (const [i, request] of source.plan(known).entries()) {
    if (i > 0 && source.gapMs !== undefined && wait !== undefined) await wait(source.gapMs, signal);
    let body: string;
    try {
      body = await fetcher.fetchNotice({ path: request.path, weight: request.weight, ...(request.headers !== undefined && { headers: { ...request.headers } }) }, signal);
    } catch (err) {
      throw noticeErrorOf(source.name, err);
    }
    reads.push(source.decode(request.path, body, now()));
  }
  return joinReads(reads);
}

/** The reads of one source's requests as one: the first status, the windows and announcements of all. */
export function joinReads(reads: readonly NoticeRead[]): NoticeRead {
  const status = reads.find((r) => r.status !== undefined)?.status;
  const maintenance = reads.some((r) => r.maintenance !== undefined) ? reads.flatMap((r) => r.maintenance ?? []) : undefined;
  const announcements = reads.some((r) => r.announcements !== undefined) ? reads.flatMap((r) => r.announcements ?? []) : undefined;
  return {
    ...(status !== undefined && { status }),
    ...(maintenance !== undefined && { maintenance }),
    ...(announcements !== undefined && { announcements }),
  };
}
