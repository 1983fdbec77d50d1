/**
 * Faults: how the reference exchange misbehaves on purpose, per endpoint, for a time, for a
 * number of requests, or until cleared.
 */
import { z } from 'zod';
import { duration } from './fields';

export const FAULT_ENDPOINTS = ['coins', 'tickers', 'all'] as const;
export type FaultEndpoint = (typeof FAULT_ENDPOINTS)[number];

const common = {
  endpoint: z.enum(FAULT_ENDPOINTS).default('all'),
  for: duration.optional(),
  count: z.number().int().positive().optional(),
};
const status = (fallback: number) => z.number().int().min(400).max(599).default(fallback);
const retryAfter = (fallback: number) => z.number().int().min(0).max(86_400).default(fallback);
const MIB = 1024 * 1024;

export const faultSchema = z.discriminatedUnion('kind', [
  /** An error status with a JSON error body (500 by default; 502, 503 ...). */
  z.object({ kind: z.literal('http_500'), ...common, status: status(500) }).strict(),
  /** Answer normally after `ms` milliseconds. */
  z.object({ kind: z.literal('delay'), ...common, ms: z.number().int().min(0).max(600_000).default(2_000) }).strict(),
  /** Send the headers and the first `bytes` of the body, then nothing. */
  z.object({ kind: z.literal('hang'), ...common, bytes: z.number().int().min(0).default(64) }).strict(),
  /** Send the first `bytes` of the body (half by default) under the full Content-Length, then cut the connection. */
  z.object({ kind: z.literal('truncate'), ...common, bytes: z.number().int().min(0).optional() }).strict(),
  /** HTTP 200, application/json, a body that does not parse. */
  z.object({ kind: z.literal('invalid_json'), ...common }).strict(),
  /** HTTP 200 with an envelope instead of the resource: {"code":"200","msg":"success","data":null}. */
  z.object({ kind: z.literal('wrong_shape'), ...common }).strict(),
  /** A proxy's HTML error page (text/html, 502 by default). */
  z.object({ kind: z.literal('html'), ...common, status: status(502) }).strict(),
  /** 429 with Retry-After and code -1003 (as a string with code_as_string, as some deployments send it). */
  z.object({ kind: z.literal('rate_limit'), ...common, retry_after: retryAfter(10), code_as_string: z.boolean().default(false) }).strict(),
  /** 418, as after repeated abuse, with Retry-After. */
  z.object({ kind: z.literal('ban'), ...common, retry_after: retryAfter(60), code_as_string: z.boolean().default(false) }).strict(),
  /** HTTP 200 with `[]`. */
  z.object({ kind: z.literal('empty'), ...common }).strict(),
  /** `records` records with wrong types or missing fields, mixed among good ones. */
  z.object({ kind: z.literal('malformed'), ...common, records: z.number().int().min(1).max(10_000).default(5) }).strict(),
  /** A streamed body of `bytes` bytes (64 MiB by default), never held in memory at once. */
  z.object({ kind: z.literal('huge'), ...common, bytes: z.number().int().min(2).max(16 * 1024 * MIB).default(64 * MIB) }).strict(),
]);

export type FaultSpec = z.output<typeof faultSchema>;
export type FaultInput = z.input<typeof faultSchema>;
export type FaultKind = FaultSpec['kind'];
