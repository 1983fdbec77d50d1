import { anySignal } from '../lib/abort';
import { deadline as startDeadline } from '../lib/deadline';
import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate } from 'node:zlib';
import { errors, type Dispatcher } from 'undici';
import { ExchangeError, type FailureKind, type RequestEndpoint } from './errors';
import { errorMessage } from '../lib/error-message';

/**
 * One GET to an exchange: a deadline over the whole exchange (a body that trickles forever
 * is a timeout too), a cap on the body size (after decompression), and every failure
 * turned into an ExchangeError of one kind.
 */
export interface GetOptions {
  dispatcher: Dispatcher;
  origin: string;
  path: string;
  endpoint: RequestEndpoint;
  headers: Record<string, string>;
  timeoutMs: number;
  maxBodyBytes: number;
  signal?: AbortSignal | undefined;
  /**
   * The bytes of the last answer to this request, when kept: a 2xx answer whose (decoded)
   * bytes equal them, compared chunk by chunk as they arrive, is neither joined nor made text
   * (`same`; `text` is then empty).
   */
  sameAs?: Buffer | undefined;
  /**
   * The last answer's bytes as they came on the wire, when it came compressed: an answer whose
   * compressed bytes equal them is the same answer, found without decompressing it (`same`).
   */
  sameWire?: Buffer | undefined;
}

export interface GetResult {
  status: number;
  text: string;
  /** The answer's bytes equal `sameAs` (and `text` is empty). */
  same?: true;
  /** The answer's (decoded) bytes, when it was made text. */
  raw?: Buffer;
  /** The answer's compressed bytes, when it came compressed and was decompressed (to keep as the next `sameWire`). */
  wire?: Buffer;
  /** Bytes on the wire. */
  bytes: number;
  headers: Record<string, string | string[] | undefined>;
}

const TIMEOUT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT',
]);

class DeadlineError extends Error {}

export async function get(options: GetOptions): Promise<GetResult> {
  const deadline = new AbortController();
  // Timed from when the request is sent; a stall of our own event loop does not count.
  const timer = startDeadline(options.timeoutMs, () => deadline.abort(new DeadlineError()));
  const linked = anySignal(options.signal ? [options.signal, deadline.signal] : [deadline.signal]);
  const signal = linked.signal;
  try {
    const response = await options.dispatcher.request({
      origin: options.origin,
      path: options.path,
      method: 'GET',
      headers: options.headers,
      signal,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
    const ok = response.statusCode >= 200 && response.statusCode < 300;
    const body = await readBody(response, options, encodingOf(response.headers['content-encoding']), ok);
    return { status: response.statusCode, ...body, headers: response.headers };
  } catch (err) {
    if (options.signal?.aborted) throw options.signal.reason;
    throw classify(err, options);
  } finally {
    timer.cancel();
    linked.release();
  }
}

/**
 * The body's bytes as they came, compared with `sameAs` chunk by chunk as they arrive (a native
 * memcmp per chunk): when equal, they are not joined (`buffer` is then empty). A body declared or
 * found larger than the cap is dropped, and too large.
 */
async function collect(response: Dispatcher.ResponseData, options: GetOptions, sameAs: Buffer | undefined): Promise<{ buffer: Buffer; size: number; same: boolean }> {
  const cap = options.maxBodyBytes;
  const body = response.body;
  // Destroying the body below must not become an unhandled 'error' event.
  body.on('error', () => undefined);
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > cap) {
    body.destroy();
    throw tooLarge(options, `declared ${declared} bytes`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let same = sameAs !== undefined;
  for await (const chunk of body) {
    const buf = chunk as Buffer;
    if (same) same = size + buf.length <= (sameAs as Buffer).length && buf.equals((sameAs as Buffer).subarray(size, size + buf.length));
    size += buf.length;
    if (size > cap) {
      body.destroy();
      throw tooLarge(options, `more than ${cap} bytes`);
    }
    chunks.push(buf);
  }
  if (same && size === (sameAs as Buffer).length) return { buffer: EMPTY, size, same: true };
  // One copy at a time: the chunks go as soon as they are joined (at 16,000 coins a coin list
  // is 16 MB, and three copies of it at once were a third of the daemon's peak memory).
  const joined = Buffer.concat(chunks, size);
  chunks.length = 0;
  return { buffer: joined, size, same: false };
}

const EMPTY = Buffer.alloc(0);

type Encoding = 'gzip' | 'deflate' | 'br';

/** The content coding the body is decompressed from; undefined for none (or one not known, read as it is). */
function encodingOf(header: string | string[] | undefined): Encoding | undefined {
  const enc = (Array.isArray(header) ? header.join(',') : (header ?? '')).trim().toLowerCase();
  if (enc === 'gzip' || enc === 'x-gzip') return 'gzip';
  if (enc === 'deflate' || enc === 'br') return enc;
  return undefined;
}

const DECOMPRESS = {
  gzip: promisify(gunzip),
  deflate: promisify(inflate),
  br: promisify(brotliDecompress),
} as const satisfies Record<Encoding, (buf: Buffer, options: { maxOutputLength: number }) => Promise<Buffer>>;

/**
 * The body, compared with the last answer's when it is a 2xx one. A body that came as it is
 * (`encoding` undefined) is compared as it arrives. A compressed body: its compressed bytes
 * compared with the last answer's as they arrive (an unchanged answer costs no decompression),
 * otherwise decompressed at once on libuv's thread pool, off the event loop, and compared with
 * the last answer's decompressed bytes (a server may compress the same answer differently). The
 * cap holds for both the compressed and the decompressed size.
 */
async function readBody(response: Dispatcher.ResponseData, options: GetOptions, encoding: Encoding | undefined, ok: boolean): Promise<Omit<GetResult, 'status' | 'headers'>> {
  const cap = options.maxBodyBytes;
  const sameAs = ok ? options.sameAs : undefined;
  const sameWire = ok ? options.sameWire : undefined;
  const wire = await collect(response, options, encoding === undefined ? sameAs : sameWire);
  if (wire.same) return { text: '', bytes: wire.size, same: true };
  if (encoding === undefined) return { text: wire.buffer.toString('utf8'), bytes: wire.size, raw: wire.buffer };
  let raw: Buffer;
  try {
    raw = await DECOMPRESS[encoding](wire.buffer, { maxOutputLength: cap });
  } catch (err) {
    if (errorCode(err) === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(options, `more than ${cap} bytes decompressed`);
    throw err;
  }
  return sameAs !== undefined && raw.equals(sameAs) ? { text: '', bytes: wire.buffer.length, same: true, wire: wire.buffer } : { text: raw.toString('utf8'), bytes: wire.buffer.length, raw, wire: wire.buffer };
}

function tooLarge(options: GetOptions, detail: string): ExchangeError {
  return new ExchangeError('body_too_large', options.endpoint, `${options.endpoint}: body too large (${detail}; cap ${options.maxBodyBytes})`);
}

function classify(err: unknown, options: GetOptions): ExchangeError {
  if (err instanceof ExchangeError) return err;
  const ep = options.endpoint;
  const name = typeof err === 'object' && err !== null ? (err as { name?: unknown }).name : undefined;
  if (err instanceof DeadlineError || name === 'AbortError' || name === 'TimeoutError') {
    return new ExchangeError('timeout', ep, `${ep}: no complete answer within ${options.timeoutMs} ms`);
  }
  const code = errorCode(err);
  if (err instanceof errors.UndiciError || code !== undefined) {
    // Refused, reset, a socket closed before the body ended: the connection failed.
    let kind: FailureKind = 'connect';
    if (code !== undefined && TIMEOUT_CODES.has(code)) kind = 'timeout';
    else if (code !== undefined && code.startsWith('Z_')) kind = 'invalid_json'; // a broken gzip body
    return new ExchangeError(kind, ep, `${ep}: ${kind === 'timeout' ? 'timed out' : 'request failed'} (${code ?? 'error'})`);
  }
  return new ExchangeError('connect', ep, `${ep}: request failed (${errorMessage(err)})`);
}

/**
 * The error's code, looking through `cause` (undici wraps socket errors). Duck-typed: Node's
 * own errors may come from another realm, where instanceof Error fails.
 */
function errorCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; typeof e === 'object' && e !== null && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'UND_ERR') return code;
  }
  return undefined;
}
