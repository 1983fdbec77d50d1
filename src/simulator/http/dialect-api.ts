/**
 * The reference exchange speaking another exchange's API (`simulate --dialect NAME`): the same
 * market model and weight budget as http/api.ts, through the dialect renderer's paths, bodies,
 * signing checks and rate-limit answers. Faults: `rate_limit`, `ban` and `empty` answer in the
 * dialect's own shape; the transport faults (delay, hang, truncate, invalid_json, html, http_500,
 * huge) and `wrong_shape` as in spot-v3; `malformed` (spot-v3 records) is not applied here.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '../../lib/clock';
import type { FaultBoard } from '../faults/board';
import { respondWithFault } from '../faults/respond';
import type { Market } from '../market/model';
import { noticeView } from '../market/notices';
import type { Answer, DialectRenderer, DialectRequest, Endpoint, ModelTicker, SimCredentials, TickerSource } from '../dialects/types';
import { alignCloseTime, type TickerBook } from '../ticker/book';
import type { Live } from './live';
import { send, type Reply } from './reply';
import type { WeightLimiter } from './weight-limiter';

const UNKNOWN_PATH_WEIGHT = 1;
/** A notice source (notices.md 1): public and light on every exchange. */
const NOTICE_WEIGHT = 1;
/** The methods of the exchange's paths (an Allow header with every 405, as http/api.ts sends it). */
const ALLOW = 'GET, HEAD';

export interface DialectApiDeps {
  renderer: DialectRenderer;
  market: Market;
  tickers: TickerBook;
  faults: FaultBoard;
  limiter: WeightLimiter;
  live: Live;
  clock: Clock;
  credentials: SimCredentials | undefined;
  beforeRequest(): void;
}

function clientIp(req: IncomingMessage): string {
  const ip = req.socket.remoteAddress ?? 'unknown';
  return ip.startsWith('::ffff:') ? ip.slice(7) : ip;
}

/** The model's tickers at closeTime, parsed from the spot-v3 rendering (the one computation of them). */
function tickerSource(deps: DialectApiDeps, closeTime: number): TickerSource {
  const parse = (name: string): ModelTicker | undefined => {
    const s = deps.market.symbols.get(name);
    if (s === undefined) return undefined;
    return { ...(JSON.parse(deps.tickers.one(s, closeTime)) as ModelTicker), base: s.base, quote: s.quote };
  };
  return {
    all: () => [...deps.market.symbols.keys()].map((name) => parse(name) as ModelTicker),
    one: parse,
  };
}

function toBuffer(answer: Answer): Buffer {
  if (answer.raw === true) return Buffer.from(String(answer.body));
  return Buffer.from(JSON.stringify(answer.body));
}

function sendAnswer(res: ServerResponse, answer: Answer, headers: Record<string, string>): void {
  const { 'content-type': type, ...rest } = { ...headers, ...answer.headers };
  send(res, answer.status, toBuffer(answer), rest, type);
}

export function createDialectApiHandler(deps: DialectApiDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const { renderer } = deps;
  const endpointOf = (path: string): Endpoint | undefined =>
    path === renderer.paths.coins ? 'coins' : path === renderer.paths.tickers ? 'tickers' : undefined;
  return (req, res) => {
    deps.beforeRequest();
    const raw = req.url ?? '/';
    const url = new URL(raw, 'http://localhost');
    const q = raw.indexOf('?');
    const now = deps.clock.now();
    const request: DialectRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      rawQuery: q < 0 ? '' : raw.slice(q + 1),
      query: url.searchParams,
      headers: req.headers,
      now,
    };
    const endpoint = endpointOf(url.pathname);
    const source = endpoint === undefined ? renderer.notices?.[url.pathname] : undefined;
    const weight = endpoint === undefined ? (source === undefined ? UNKNOWN_PATH_WEIGHT : NOTICE_WEIGHT) : renderer.weight(endpoint, url.searchParams);
    const decision = deps.limiter.take(clientIp(req), weight, now);
    const state = {
      used: decision.used,
      max: deps.limiter.limit.max,
      windowMs: deps.limiter.limit.windowMs,
      retryAfterMs: decision.kind === 'ok' ? 0 : decision.retryAfterMs,
      now,
    };
    const headers = renderer.usage(state);
    if (decision.kind !== 'ok') return sendAnswer(res, renderer.limited(state, decision.kind === 'banned', now), headers);
    if (source !== undefined) {
      if (request.method !== 'GET' && request.method !== 'HEAD') return sendAnswer(res, { ...renderer.notFound(request), status: 405 }, { ...headers, allow: ALLOW });
      const pairs = [...deps.market.symbols.values()];
      return sendAnswer(res, source(request, noticeView(deps.market.notices, now), pairs), headers);
    }
    if (endpoint === undefined) return sendAnswer(res, renderer.notFound(request), headers);
    if (request.method !== 'GET' && request.method !== 'HEAD') return sendAnswer(res, { ...renderer.notFound(request), status: 405 }, { ...headers, allow: ALLOW });
    const answer = (): Answer => {
      const refused = renderer.authorize?.(endpoint, request, deps.credentials);
      if (refused !== undefined) return refused;
      const coins = [...deps.market.coins.values()];
      return endpoint === 'coins' ? renderer.coins(coins, now) : renderer.tickers(request, tickerSource(deps, alignCloseTime(now)));
    };
    const proceed = (): void => sendAnswer(res, answer(), headers);
    const fault = deps.faults.take(endpoint);
    if (fault === undefined || fault.kind === 'malformed') return proceed();
    if (fault.kind === 'rate_limit' || fault.kind === 'ban') {
      const refusal = renderer.limited({ ...state, retryAfterMs: fault.retry_after * 1000 }, fault.kind === 'ban', now);
      return sendAnswer(res, { ...refusal, headers: { ...refusal.headers, 'retry-after': String(fault.retry_after) } }, headers);
    }
    if (fault.kind === 'empty') {
      const none: TickerSource = { all: () => [], one: () => undefined };
      return sendAnswer(res, endpoint === 'coins' ? renderer.coins([], now) : renderer.tickers(request, none), headers);
    }
    const reply = (): Reply => {
      const a = answer();
      return { status: a.status, body: toBuffer(a) };
    };
    respondWithFault(fault, { res, endpoint, headers, reply, proceed, live: deps.live });
  };
}
