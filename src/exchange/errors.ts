import type { Endpoint } from '../snapshot/model';

/** Every way a poll can fail; each becomes the `kind` label of `spotwatch_poll_errors_total`. */
export const FAILURE_KINDS = [
  'timeout', 'connect', 'http_3xx', 'http_4xx', 'rate_limited', 'banned', 'http_5xx', 'body_too_large', 'invalid_json', 'schema',
] as const;

export type FailureKind = (typeof FAILURE_KINDS)[number];

/** What a request was for: a poll's endpoint, or a notice source's read (notices/). */
export type RequestEndpoint = Endpoint | 'notices';

/** Kinds worth another attempt within the same poll. */
const RETRYABLE: ReadonlySet<FailureKind> = new Set(['timeout', 'connect', 'http_5xx', 'rate_limited']);

export interface ExchangeErrorDetails {
  status?: number;
  /** The exchange's own error code from a `{"code","msg"}` body, as text (it may arrive as a number or a string). */
  code?: string;
  retryAfterMs?: number;
}

/** A failed request to an exchange, classified by kind. The message never carries secrets. */
export class ExchangeError extends Error {
  override readonly name = 'ExchangeError';
  readonly status: number | undefined;
  readonly code: string | undefined;
  readonly retryAfterMs: number | undefined;

  constructor(
    readonly kind: FailureKind,
    readonly endpoint: RequestEndpoint,
    message: string,
    details: ExchangeErrorDetails = {},
  ) {
    super(message);
    this.status = details.status;
    this.code = details.code;
    this.retryAfterMs = details.retryAfterMs;
  }

  get retryable(): boolean {
    return RETRYABLE.has(this.kind);
  }
}
