/**
 * GET /api/v1/notices (notices.md section 5): each exchange's status, maintenance windows and
 * announcements, as the main thread's mirror holds them, filtered and newest first. The query is
 * parsed into a NoticeQuery (or the 400 text), then applied to the lists: both pure.
 */
import express, { type Router } from 'express';
import { answerOtherMethods } from '../lib/other-methods';
import type { NoticeLists } from '../notices/book-json';
import type { Announcement, ExchangeStatus, Maintenance } from '../notices/model';
import { iso, methodNotAllowed, one, parseLimit, parseSince, singleParamsOnly, takesParams } from './api';

export const NOTICE_KINDS = ['status', 'maintenance', 'announcement'] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

/** Items of each list by default (as /changes). */
const DEFAULT_LIMIT = 100;

export interface NoticeQuery {
  exchange?: string;
  kind?: NoticeKind;
  coin?: string;
  /** Windows beginning, announcements published, at or after it (ms). */
  since?: number;
  /** Items of each list at most. */
  limit: number;
}

/** The query of /api/v1/notices, or the 400 text. */
export function parseNoticeQuery(q: Record<string, unknown>): NoticeQuery | string {
  const limit = parseLimit(q.limit, DEFAULT_LIMIT);
  if (typeof limit === 'string') return limit;
  const query: NoticeQuery = { limit };
  const kind = one(q.kind);
  if (kind !== undefined) {
    if (!(NOTICE_KINDS as readonly string[]).includes(kind)) return `kind: one of ${NOTICE_KINDS.join(', ')}`;
    query.kind = kind as NoticeKind;
  }
  const since = one(q.since);
  if (since !== undefined) {
    const t = parseSince(since);
    if (t === undefined) return 'since: use RFC 3339 or milliseconds since the epoch';
    query.since = t;
  }
  for (const key of ['exchange', 'coin'] as const) {
    const v = one(q[key]);
    if (v !== undefined) query[key] = v;
  }
  return query;
}

export function statusView(s: ExchangeStatus) {
  return { exchange: s.exchange, state: s.state, message: s.message, since: iso(s.since), checked: iso(s.checked) };
}

export function maintenanceView(w: Maintenance) {
  return {
    exchange: w.exchange,
    id: w.id,
    title: w.title,
    state: w.state,
    begins: iso(w.begins),
    ends: iso(w.ends),
    origin: w.origin,
    scope: w.scope,
    coins: [...w.coins],
    symbols: [...w.symbols],
    url: w.url,
    source: w.source,
  };
}

export function announcementView(a: Announcement) {
  return { exchange: a.exchange, id: a.id, kind: a.kind, title: a.title, url: a.url, published: iso(a.published), coins: [...a.coins], symbols: [...a.symbols], chains: [...a.chains], source: a.source };
}

export interface NoticesView {
  status: ReturnType<typeof statusView>[];
  maintenance: ReturnType<typeof maintenanceView>[];
  announcements: ReturnType<typeof announcementView>[];
}

/** The windows and announcements the query keeps (every exchange's, newest first), before the limit. */
export function selectNotices(lists: Iterable<NoticeLists>, q: Omit<NoticeQuery, 'limit'>): { status: ExchangeStatus[]; maintenance: Maintenance[]; announcements: Announcement[] } {
  const status: ExchangeStatus[] = [];
  const maintenance: Maintenance[] = [];
  const announcements: Announcement[] = [];
  const wanted = (kind: NoticeKind): boolean => q.kind === undefined || q.kind === kind;
  const names = (n: { coins: readonly string[] }): boolean => q.coin === undefined || n.coins.includes(q.coin);
  const after = (t: number): boolean => q.since === undefined || t >= q.since;
  for (const l of lists) {
    // A status names no coin, and is the exchange now: a coin filter leaves it out, `since` keeps it.
    if (wanted('status') && q.coin === undefined && l.status !== null && (q.exchange === undefined || l.status.exchange === q.exchange)) status.push(l.status);
    if (wanted('maintenance')) for (const w of l.windows) if ((q.exchange === undefined || w.exchange === q.exchange) && names(w) && after(w.begins)) maintenance.push(w);
    if (wanted('announcement')) for (const a of l.announcements) if ((q.exchange === undefined || a.exchange === q.exchange) && names(a) && after(a.published)) announcements.push(a);
  }
  status.sort((a, b) => cmp(a.exchange, b.exchange));
  maintenance.sort((a, b) => b.begins - a.begins || cmp(a.exchange, b.exchange) || cmp(a.source, b.source) || cmp(a.id, b.id));
  announcements.sort((a, b) => b.published - a.published || cmp(a.exchange, b.exchange) || cmp(a.id, b.id));
  return { status, maintenance, announcements };
}

/** The answer of /api/v1/notices: each list filtered, sorted, cut at the limit, in the API's names. */
export function noticesView(lists: Iterable<NoticeLists>, q: NoticeQuery): NoticesView {
  const s = selectNotices(lists, q);
  return {
    status: s.status.slice(0, q.limit).map(statusView),
    maintenance: s.maintenance.slice(0, q.limit).map(maintenanceView),
    announcements: s.announcements.slice(0, q.limit).map(announcementView),
  };
}

/** GET /api/v1/notices, from each watched exchange's notice lists. */
export function noticesApiRouter(lists: () => Iterable<NoticeLists>): Router {
  const r = express.Router();
  r.use(singleParamsOnly);
  r.get('/notices', takesParams('exchange', 'kind', 'coin', 'since', 'limit'), (req, res) => {
    const query = parseNoticeQuery(req.query);
    if (typeof query === 'string') {
      res.status(400).json({ status: 'error', error: query });
      return;
    }
    res.json(noticesView(lists(), query));
  });
  answerOtherMethods(r, methodNotAllowed);
  return r;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
