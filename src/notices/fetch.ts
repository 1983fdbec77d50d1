/**
 * One read of one notice source: its planned requests through the exchange's client (or the
 * client of its own host), each answer decoded, the reads joined. Any failure is a NoticeError
 * of a kind the caller counts, and the whole read fails: never a partial read (notices.md
 * section 6).
 */
import type { Request } from '../exchange/dialect';
import { ExchangeError, type FailureKind } from '../exchange/errors';
import type { NoticeRead, WindowRead } from './model';
import { NoticeError, type KnownWindows, type NoticeFailureKind, type NoticeRequest, type NoticeSource } from './source';

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

/** Runs each request of a source when the source may be asked again. */
export type Pace = <T>(request: () => Promise<T>, signal?: AbortSignal) => Promise<T>;

/**
 * The pace of a source with a gap (OKX's system status, 1 request per 5 s): each request sent at
 * least `gapMs` after the answer to the one before came back (so the exchange, which counts
 * them somewhere in between, sees them at least that far apart), within a read and from one
 * read to the next, on the monotonic clock.
 */
export function pacer(gapMs: number, monotonic: () => number, wait: Wait): Pace {
  let last: number | undefined;
  return async (request, signal) => {
    // Until the gap has passed by the monotonic clock: a timer may fire a fraction of a ms early
    // (libuv counts whole ms), and OKX refuses a request 4,999.6 ms after the last with 429.
    for (let due = last === undefined ? 0 : last + gapMs - monotonic(); due > 0; due = (last ?? 0) + gapMs - monotonic()) await wait(Math.max(1, Math.ceil(due)), signal);
    try {
      return await request();
    } finally {
      last = monotonic();
    }
  };
}


/** What one read of a source brought. */
export interface SourceRead {
  readonly read: NoticeRead;
  /**
   * A follow-up that failed (notices.md section 6, counted like any failed read): the read still
   * stands, since its list was read; the windows the follow-up was to settle are `read.unsettled`.
   */
  readonly failed?: NoticeError;
}

export interface ReadSourceOptions {
  readonly signal?: AbortSignal;
  readonly pace?: Pace;
}

/**
 * Reads `source`: every request it plans given `known`, then its follow-ups while known open
 * windows are missing from the answers (each follow-up answer settles only those), decoded at
 * `now()` as each answer arrives. A planned request that fails fails the read; a follow-up that
 * fails leaves what it was to settle unsettled.
 */
export async function readSource(fetcher: NoticeFetcher, source: NoticeSource, known: KnownWindows, now: () => number, options: ReadSourceOptions = {}): Promise<SourceRead> {
  const { signal, pace } = options;
  const ask = async (request: NoticeRequest): Promise<NoticeRead> => {
    const fetch = (): Promise<string> => fetcher.fetchNotice({ path: request.path, weight: request.weight, ...(request.headers !== undefined && { headers: { ...request.headers } }) }, signal);
    let body: string;
    try {
      body = await (pace === undefined ? fetch() : pace(fetch, signal));
    } catch (err) {
      throw noticeErrorOf(source.name, err);
    }
    return source.decode(request.path, body, now());
  };
  const reads: NoticeRead[] = [];
  for (const request of source.plan(known)) reads.push(await ask(request));
  const read = joinReads(reads);
  if (source.followUp === undefined || read.maintenance === undefined) return { read };
  const listed = new Set(read.maintenance.map((w) => w.id));
  let missing = known.open.filter((w) => !listed.has(w.id));
  const found: WindowRead[] = [];
  const asked: string[] = [];
  while (missing.length > 0) {
    const request = source.followUp(missing, asked, now());
    if (request === undefined) break;
    asked.push(request.path);
    let answer: NoticeRead;
    try {
      answer = await ask(request);
    } catch (err) {
      if (!(err instanceof NoticeError) || signal?.aborted === true) throw err;
      return { read: { ...read, maintenance: [...read.maintenance, ...found], unsettled: missing.map((w) => w.id) }, failed: err };
    }
    for (const w of missing) {
      // OKX's ids are hashes of the title: last month's window of the same title is in the list too.
      const record = answer.maintenance?.find((r) => r.id === w.id && (r.ends ?? r.begins) >= w.begins);
      if (record !== undefined) found.push(record);
    }
    const settled = new Set(found.map((r) => r.id));
    missing = missing.filter((w) => !settled.has(w.id));
  }
  return { read: { ...read, maintenance: [...read.maintenance, ...found] } };
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
