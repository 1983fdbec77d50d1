/**
 * A notice source (notices.md section 1): one feed of an exchange's notices, read like a
 * dialect's requests. It plans the requests to send and decodes each answer into a NoticeRead
 * (model.ts); it is pure: no clock, no I/O (the fetching is notices/fetch.ts, through the
 * exchange's client). A source that cannot read an answer throws a NoticeError, never a
 * partial read.
 */
import type { Maintenance, NoticeRead } from './model';

/** One request of a source: appended to its base (the exchange's base_url, else `NoticeSource.baseUrl`). */
export interface NoticeRequest {
  /** Path and query. */
  readonly path: string;
  /** Its cost against the exchange's weight budget. */
  readonly weight: number;
  readonly headers?: Readonly<Record<string, string>>;
}

/** A window of a source as the book holds it (what a follow-up needs to ask about it and find it). */
export type KnownWindow = Pick<Maintenance, 'id' | 'state' | 'begins' | 'ends'>;

/** What the notices step knows when a source reads. */
export interface KnownWindows {
  /**
   * This source's windows the book holds as scheduled or ongoing, and those a follow-up has not
   * settled yet: a source whose list drops finished windows (OKX) asks where the ones its list
   * no longer has went, in the same read.
   */
  readonly open: readonly KnownWindow[];
}

/** Every way a notice read fails; the `kind` label of `spotwatch_notice_errors_total`. */
export const NOTICE_FAILURE_KINDS = ['error_answer', 'http', 'rate_limited', 'timeout', 'connect', 'schema', 'body_too_large'] as const;
export type NoticeFailureKind = (typeof NOTICE_FAILURE_KINDS)[number];

/** A notice read that failed: counted by kind, logged once per run of failures, and changing nothing else (notices.md section 6). */
export class NoticeError extends Error {
  override readonly name = 'NoticeError';

  constructor(
    readonly kind: NoticeFailureKind,
    readonly source: string,
    message: string,
  ) {
    super(message);
  }
}

export interface NoticeSource {
  /** `okx-status`, `okx-announcements`, `statuspage`...: the `source` label and the notices' `source`. */
  readonly name: string;
  /** Where its requests go when not the exchange's base_url (a Statuspage is a host of its own). */
  readonly baseUrl?: string;
  /**
   * How a known window absent from its list is judged (notices/book.ts ReadOptions): `ask` — the
   * source asks its follow-up in the same read, and a window the follow-up could not tell about
   * (it failed) is judged for now and asked about again (OKX); else judged by its times.
   */
  readonly vanished?: 'ask';
  /** The least time between two of its requests, within a read and from one read to the next (OKX's system status: 1 request per 5 s). */
  readonly gapMs?: number;
  /** The requests of one read, given what is known. */
  plan(known: KnownWindows): readonly NoticeRequest[];
  /**
   * After the planned requests: the next request that tells where `missing` went (known open
   * windows the answers so far do not list), given the paths asked so far and the time;
   * undefined when there is nothing left to ask. Its answer settles only the missing windows
   * (OKX: `?state=completed`, then `?state=canceled` while some are still missing).
   */
  followUp?(missing: readonly KnownWindow[], asked: readonly string[], now: number): NoticeRequest | undefined;
  /**
   * The answer to the request of `path` (one of plan's), `now` for what the source does not
   * date. Throws NoticeError: `error_answer` when the source's own success marker is wrong,
   * `schema` for any other shape (not JSON included).
   */
  decode(path: string, body: string, now: number): NoticeRead;
}
