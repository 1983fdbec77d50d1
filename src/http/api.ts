import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import { answerOtherMethods } from '../lib/other-methods';
import type { Alert } from '../alerts/alert';
import type { Silence } from '../alerts/silence';
import { MAX_TIME, parseSilence } from '../alerts/silence-request';
import { isChangeKind } from '../snapshot/changes';
import type { ChangeQuery, DeadLetter, StoredChange } from '../storage/port';
import type { Page, StateView } from './state-view';

/** What the JSON API reads from the running daemon. */
export interface ApiSource {
  alerts(): Alert[];
  changes(query: ChangeQuery): StoredChange[];
  /** One page of each exchange's closed networks; `next`: the offset of the next page, if any. */
  state(page: Page): { data: StateView; next: number | null };
  /** Newest first; `before` (an id) gives the next page. */
  deadLetters(limit: number, before?: number): DeadLetter[];
  silences: {
    list(): Silence[];
    /** Stores a silence and puts it in force (rejects when the store refused it). */
    save(silence: Silence): void | Promise<void>;
  };
  now(): number;
}

const MAX_LIMIT = 1000;


/** RFC 3339; a time outside what it can write (a row from before validation) as null, never a throw. */
export function iso(ms: number | null): string | null {
  return ms === null || !Number.isFinite(ms) || ms < 0 || ms > MAX_TIME ? null : new Date(ms).toISOString();
}

/**
 * Every query parameter given once, by a plain name: `?limit=1&limit=2` or `?coin[]=x` would
 * otherwise be read as something the caller did not mean (one of the values, or nothing).
 */
export function singleParams(query: Record<string, unknown>): string | undefined {
  for (const [name, value] of Object.entries(query)) {
    if (/[[\]]/.test(name)) return `${name}: brackets are not part of any parameter name; give each parameter once, by its plain name`;
    if (typeof value !== 'string') return `${name}: give this parameter once`;
  }
  return undefined;
}

/**
 * A route's query parameters, and no other: a name it does not read (`/changes?symbol=X` before
 * it took `symbol`) is refused with 400 naming it, rather than answered with rows the caller did
 * not ask for.
 */
export function takesParams(...names: string[]): RequestHandler {
  const known = new Set(names);
  return (req, res, next) => {
    const unknown = Object.keys(req.query as Record<string, unknown>).find((name) => !known.has(name));
    if (unknown === undefined) return next();
    const path = req.originalUrl.split('?')[0] ?? req.path;
    const takes = names.length === 0 ? 'takes no parameter' : `takes ${names.join(', ')}`;
    res.status(400).json({ status: 'error', error: `${unknown}: not a parameter of ${req.method} ${path} (it ${takes})` });
  };
}

/**
 * A body that is not sent as JSON is refused with 415 saying so, rather than parsed as nothing and
 * refused for what it lacks. A request without a body goes on (its handler says what is missing).
 */
export const jsonBodyOnly: RequestHandler = (req, res, next) => {
  const is = req.is('application/json');
  // No body (type-is counts Content-Length: 0 as one): the handler says what is missing.
  if (is !== false || req.headers['content-length'] === '0') return next();
  const sent = req.headers['content-type'];
  res.status(415).json({ status: 'error', error: `Content-Type must be application/json (${sent === undefined ? 'none was sent' : `got ${sent.split(';')[0]?.trim()}`})` });
};

/** `limit` of a listing (`fallback` when absent), 1 to MAX_LIMIT; the 400 text when it is wrong (more is refused, not cut). */
export function parseLimit(v: unknown, fallback: number): number | string {
  const limit = one(v);
  if (limit === undefined) return fallback;
  if (!/^\d+$/.test(limit) || Number(limit) < 1 || Number(limit) > MAX_LIMIT) return `limit: a whole number from 1 to ${MAX_LIMIT}`;
  return Number(limit);
}

/** `offset` and `limit` of a listing: defaults, bounds and the 400 text when they are wrong. */
function parsePage(q: Record<string, unknown>, defaultLimit: number): Page | string {
  const limit = parseLimit(q.limit, defaultLimit);
  if (typeof limit === 'string') return limit;
  const page: Page = { offset: 0, limit };
  const offset = one(q.offset);
  if (offset !== undefined) {
    if (!/^\d+$/.test(offset) || !Number.isSafeInteger(Number(offset))) return 'offset: a whole number from 0 (the `next` of a previous page)';
    page.offset = Number(offset);
  }
  return page;
}

export function one(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/**
 * `since`: RFC 3339 or milliseconds since the epoch, up to the end of year 9999 (MAX_TIME): a
 * larger number (`99999999999999999999`) is no time a change can have, and is refused.
 */
export function parseSince(v: string): number | undefined {
  const t = /^\d+$/.test(v) ? Number(v) : Date.parse(v);
  return Number.isSafeInteger(t) && t <= MAX_TIME ? t : undefined;
}

/** A known path asked with a method it does not take: 405 in the API's error shape (answerOtherMethods sets Allow). */
export function methodNotAllowed(req: Request, res: Response, allow: string): void {
  res.status(405).json({ status: 'error', error: `method ${req.method} not allowed on ${req.originalUrl.split('?')[0] ?? req.path} (allowed: ${allow})` });
}

/** Answers 400 to a request whose query gives a parameter twice or with brackets (see singleParams). */
export const singleParamsOnly: RequestHandler = (req, res, next) => {
  const problem = singleParams(req.query as Record<string, unknown>);
  if (problem === undefined) return next();
  res.status(400).json({ status: 'error', error: problem });
};

export function apiRouter(source: ApiSource): Router {
  const r = express.Router();

  r.use(singleParamsOnly);

  // Oldest first (then by fingerprint): a page stays put while new alerts are added at the end.
  r.get('/alerts', takesParams('limit', 'offset'), (req, res) => {
    const page = parsePage(req.query, MAX_LIMIT);
    if (typeof page === 'string') {
      res.status(400).json({ status: 'error', error: page });
      return;
    }
    const all = source.alerts().sort((a, b) => a.activeAt - b.activeAt || (a.fingerprint < b.fingerprint ? -1 : a.fingerprint > b.fingerprint ? 1 : 0));
    const data = all.slice(page.offset, page.offset + page.limit).map((a) => ({
      fingerprint: a.fingerprint,
      status: a.status,
      labels: a.labels,
      annotations: a.annotations,
      activeAt: iso(a.activeAt),
      startsAt: iso(a.startsAt),
      value: a.value,
    }));
    const next = page.offset + page.limit < all.length ? String(page.offset + page.limit) : null;
    res.json({ status: 'success', data, total: all.length, next });
  });

  r.get('/changes', takesParams('since', 'exchange', 'coin', 'network', 'symbol', 'kind', 'limit', 'before'), (req, res) => {
    const q = req.query;
    const bad = (error: string): void => {
      res.status(400).json({ status: 'error', error });
    };
    const query: ChangeQuery = { limit: 100 };
    const since = one(q.since);
    if (since !== undefined) {
      const t = parseSince(since);
      if (t === undefined) return bad('since: use RFC 3339 or milliseconds since the epoch');
      query.since = t;
    }
    const limit = parseLimit(q.limit, query.limit);
    if (typeof limit === 'string') return bad(limit);
    query.limit = limit;
    const before = one(q.before);
    if (before !== undefined) {
      if (!/^\d+$/.test(before) || !Number.isSafeInteger(Number(before))) return bad('before: the `next` cursor of a previous page');
      query.before = Number(before);
    }
    const kind = one(q.kind);
    if (kind !== undefined) {
      if (!isChangeKind(kind)) return bad('kind: not a change kind');
      query.kind = kind;
    }
    for (const key of ['exchange', 'coin', 'network', 'symbol'] as const) {
      const v = one(q[key]);
      if (v !== undefined) query[key] = v;
    }
    const rows = source.changes(query);
    const data = rows.map((c) => ({ ...c, at: iso(c.at) }));
    const last = rows[rows.length - 1];
    res.json({ status: 'success', data, next: rows.length === query.limit && last !== undefined ? String(last.id) : null });
  });

  r.get('/state', takesParams('limit', 'offset'), (req, res) => {
    const page = parsePage(req.query, MAX_LIMIT);
    if (typeof page === 'string') {
      res.status(400).json({ status: 'error', error: page });
      return;
    }
    const { data, next } = source.state(page);
    res.json({ status: 'success', data, next: next === null ? null : String(next) });
  });

  // Notifications given up on, newest first, a page at a time (`limit`, `before` = `next`).
  // The notification as the receiver would have had it, never the receiver's config (secrets).
  r.get(['/dead-letters', '/deadletters'], takesParams('limit', 'before'), (req, res) => {
    const bad = (error: string): void => {
      res.status(400).json({ status: 'error', error });
    };
    const limit = parseLimit(req.query.limit, 100);
    if (typeof limit === 'string') return bad(limit);
    const b = one(req.query.before);
    if (b !== undefined && (!/^\d+$/.test(b) || !Number.isSafeInteger(Number(b)))) return bad('before: the `next` cursor of a previous page');
    const rows = source.deadLetters(limit, b === undefined ? undefined : Number(b));
    const data = rows.map((d) => ({
      id: d.id,
      receiver: d.receiver,
      attempts: d.attempts,
      error: d.error,
      createdAt: iso(d.createdAt),
      finishedAt: iso(d.finishedAt),
      notification: d.delivery.notification,
    }));
    const last = rows[rows.length - 1];
    res.json({ status: 'success', data, next: rows.length === limit && last !== undefined ? String(last.id) : null });
  });

  r.get('/silences', takesParams(), (_req, res) => {
    const now = source.now();
    const data = source.silences.list().map((s) => ({
      id: s.id,
      matchers: s.matchers,
      startsAt: iso(s.startsAt),
      endsAt: iso(s.endsAt),
      comment: s.comment,
      createdBy: s.createdBy,
      state: now < s.startsAt ? 'pending' : now < s.endsAt ? 'active' : 'expired',
    }));
    res.json({ status: 'success', data });
  });

  r.post('/silences', takesParams(), jsonBodyOnly, express.json({ limit: '64kb' }), async (req, res) => {
    const parsed = parseSilence(req.body, source.now());
    if (typeof parsed === 'string') {
      res.status(400).json({ status: 'error', error: parsed });
      return;
    }
    await source.silences.save(parsed);
    res.status(201).json({ status: 'success', data: { silenceID: parsed.id } });
  });

  r.delete('/silences/:id', takesParams(), async (req, res) => {
    const found = source.silences.list().find((s) => s.id === req.params.id);
    if (found === undefined) {
      res.status(404).json({ status: 'error', error: 'no such silence' });
      return;
    }
    const now = source.now();
    await source.silences.save({ ...found, endsAt: Math.min(found.endsAt, now) });
    res.json({ status: 'success' });
  });

  answerOtherMethods(r, methodNotAllowed);
  return r;
}
