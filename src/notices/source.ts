/**
 * A notice source (notices.md section 1): one feed of an exchange's notices, read like a
 * dialect's requests. It plans the requests to send and decodes each answer into a NoticeRead
 * (model.ts); it is pure: no clock, no I/O (the fetching is notices/fetch.ts, through the
 * exchange's client). A source that cannot read an answer throws a NoticeError, never a
 * partial read.
 */
import type { NoticeRead } from './model';

/** One request of a source: appended to its base (the exchange's base_url, else `NoticeSource.baseUrl`). */
export interface NoticeRequest {
  /** Path and query. */
  readonly path: string;
  /** Its cost against the exchange's weight budget. */
  readonly weight: number;
  readonly headers?: Readonly<Record<string, string>>;
}

/** What the notices step knows when a source plans its next read. */
export interface KnownWindows {
  /**
   * Ids of this source's windows the step still holds as scheduled or ongoing that its last
   * read no longer listed: a source whose list drops finished windows (OKX) asks where they went.
   */
  readonly left: readonly string[];
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
   * How a known window absent from its list is judged (notices/book.ts ReadOptions): `ask` — kept
   * until the source's own follow-up says completed or canceled (OKX); else judged by its times.
   */
  readonly vanished?: 'ask';
  /** The least time between two of its requests (OKX's system status: 1 request per 5 s). */
  readonly gapMs?: number;
  /** The requests of one read, given what is known. */
  plan(known: KnownWindows): readonly NoticeRequest[];
  /**
   * The answer to the request of `path` (one of plan's), `now` for what the source does not
   * date. Throws NoticeError: `error_answer` when the source's own success marker is wrong,
   * `schema` for any other shape (not JSON included).
   */
  decode(path: string, body: string, now: number): NoticeRead;
}
