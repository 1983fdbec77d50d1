/**
 * The interface of the spec: GET /api/v3/coins and GET /api/v3/market/ticker/24hr, with the
 * weight budget in front and faults on demand. Everything that is not the admin API lands
 * here, so every answer of this surface (errors and 404s too) carries the used weight.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '../../lib/clock';
import { COINS_PATH, ERROR_CODES, TICKER_PATH, USED_WEIGHT_HEADER, WEIGHTS, type Endpoint } from '../../exchange/dialects/spot-v3/wire';
import type { FaultBoard } from '../faults/board';
import { respondWithFault } from '../faults/respond';
import type { CoinsBody } from '../market/coins-body';
import type { Market } from '../market/model';
import { alignCloseTime, type TickerBook } from '../ticker/book';
import type { Live } from './live';
import { errorBody, errorReply, send, type Headers, type Reply } from './reply';
import { checkParams } from './query-params';
import { parseTickerQuery, TICKER_MESSAGES } from './ticker-query';
import type { WeightLimiter } from './weight-limiter';

/** Weight of a request to a path the interface does not have: probing is not free. */
const UNKNOWN_PATH_WEIGHT = 1;
const ALLOW = 'GET, HEAD';

export interface ApiDeps {
  market: Market;
  coins: CoinsBody;
  tickers: TickerBook;
  faults: FaultBoard;
  limiter: WeightLimiter;
  live: Live;
  clock: Clock;
  symbolsCap: number;
  /** Runs due scenario steps first, so an answer reflects the timeline at its own time. */
  beforeRequest(): void;
}

function endpointOf(path: string): Endpoint | undefined {
  if (path === COINS_PATH) return 'coins';
  if (path === TICKER_PATH) return 'tickers';
  return undefined;
}

/** `::ffff:127.0.0.1` and `127.0.0.1` are one client. */
function clientIp(req: IncomingMessage): string {
  const ip = req.socket.remoteAddress ?? 'unknown';
  return ip.startsWith('::ffff:') ? ip.slice(7) : ip;
}

function retryAfter(ms: number): string {
  return String(Math.max(1, Math.ceil(ms / 1000)));
}

function tickersReply(deps: ApiDeps, params: URLSearchParams): Reply {
  const query = parseTickerQuery(params, deps.symbolsCap);
  if (query.kind === 'error') return errorReply(400, query.code, query.msg);
  const closeTime = alignCloseTime(deps.clock.now());
  if (query.kind === 'all') return { status: 200, body: deps.tickers.all(closeTime) };
  const records: string[] = [];
  for (const name of query.kind === 'one' ? [query.symbol] : query.symbols) {
    const s = deps.market.symbols.get(name);
    if (s === undefined) return errorReply(400, ERROR_CODES.invalidSymbol, TICKER_MESSAGES.invalidSymbol);
    records.push(deps.tickers.one(s, closeTime));
  }
  if (query.kind === 'one') return { status: 200, body: Buffer.from(records[0] as string), records, single: true };
  return { status: 200, body: Buffer.from(`[${records.join(',')}]`), records };
}

/**
 * Cached array answers carry no records; the malformed fault needs them: coins are rendered
 * again (a parse would lose the exact withdrawIntegerMultiple text), tickers split out.
 */
function withRecords(deps: ApiDeps, endpoint: Endpoint, reply: Reply): Reply {
  if (reply.status !== 200 || reply.records !== undefined) return reply;
  if (endpoint === 'coins') return { ...reply, records: deps.coins.records() };
  const parsed = JSON.parse(reply.body.toString()) as unknown[];
  return { ...reply, records: parsed.map((r) => JSON.stringify(r)) };
}

export function createApiHandler(deps: ApiDeps): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    deps.beforeRequest();
    const url = new URL(req.url ?? '/', 'http://localhost');
    const endpoint = endpointOf(url.pathname);
    const decision = deps.limiter.take(clientIp(req), endpoint === undefined ? UNKNOWN_PATH_WEIGHT : WEIGHTS[endpoint], deps.clock.now());
    const headers: Headers = { [USED_WEIGHT_HEADER]: String(decision.used) };
    if (decision.kind === 'limited') {
      const limit = `Too much request weight used; current limit is ${deps.limiter.limit.max} request weight per ${deps.limiter.limit.windowMs} ms. Please slow down.`;
      return send(res, 429, errorBody(ERROR_CODES.tooMuchWeight, limit), { ...headers, 'retry-after': retryAfter(decision.retryAfterMs) });
    }
    if (decision.kind === 'banned') {
      const msg = `Way too much request weight used; IP banned until ${decision.until}. Please slow down to avoid bans.`;
      return send(res, 418, errorBody(ERROR_CODES.tooMuchWeight, msg), { ...headers, 'retry-after': retryAfter(decision.retryAfterMs) });
    }
    if (endpoint === undefined) return send(res, 404, errorBody(ERROR_CODES.unknownPath, `Unknown path: ${url.pathname}`), headers);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return send(res, 405, errorBody(ERROR_CODES.unknownPath, `Method ${req.method ?? ''} not allowed on ${url.pathname}; use GET.`), { ...headers, allow: ALLOW });
    }
    const reply = (): Reply => {
      const bad = checkParams(url.searchParams, endpoint === 'tickers' ? ['symbol', 'symbols'] : []);
      if (bad !== undefined) return errorReply(400, bad.code, bad.msg);
      return endpoint === 'coins' ? { status: 200, body: deps.coins.body() } : tickersReply(deps, url.searchParams);
    };
    const proceed = (): void => {
      const r = reply();
      send(res, r.status, r.body, headers);
    };
    const fault = deps.faults.take(endpoint);
    if (fault === undefined) return proceed();
    respondWithFault(fault, { res, endpoint, headers, reply: () => withRecords(deps, endpoint, reply()), proceed, live: deps.live });
  };
}
