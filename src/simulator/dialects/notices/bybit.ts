/**
 * Bybit's notice sources. Shapes from https://bybit-exchange.github.io/docs/v5/system-status and
 * .../v5/announcement (parameters, field tables and response examples):
 * - GET /v5/system/status?id=&state=: `result.list[]` of {id, title, state, begin, end, href,
 *   serviceTypes, product, uidSuffix, maintainType, env}: `begin` / `end` strings of ms (`""`
 *   when unknown), `serviceTypes` / `product` / `uidSuffix` lists of numbers, `maintainType` and
 *   `env` numbers as the docs' example sends them (the table says string). Every window is
 *   listed, completed ones too, as in the example. `serviceTypes`: 1 trading service, 2 HTTP
 *   trading, 3 WebSocket trading, 4 private WebSocket stream, 5 market data; `product`: 1
 *   futures, 2 spot, 3 options, 4 spread; `maintainType` 1 planned, 2 temporary, 3 incident.
 *   Bybit has no code for deposits and withdrawals: a funding or other window names no service.
 * - GET /v5/announcements/index?locale=&type=&page=&limit=: `result:{total, list:[{title,
 *   description, type:{title, key}, tags, url, dateTimestamp, startDateTimestamp,
 *   endDateTimestamp, publishTime}]}`, times numbers of ms; `locale` required (a missing one is
 *   HTTP 200 with retCode 10001, as Bybit answers parameter errors).
 */
import type { AnnouncementKind, WindowScope, WindowView } from '../../market/notices';
import type { Answer, NoticeSource } from '../types';
import { intParam, pageOf, slug } from './common';

const envelope = (now: number, retCode: number, retMsg: string, result: unknown): Answer => ({
  status: 200, body: { retCode, retMsg, result, retExtInfo: {}, time: now },
});

const SERVICES: Record<WindowScope, { serviceTypes: number[]; product: number[] }> = {
  exchange: { serviceTypes: [1, 2, 3, 4, 5], product: [1, 2, 3, 4] },
  trading: { serviceTypes: [1, 2, 3], product: [2] },
  api: { serviceTypes: [4, 5], product: [2] },
  funding: { serviceTypes: [], product: [] },
  other: { serviceTypes: [], product: [] },
};
const MAINTAIN_TYPE = { planned: 1, unplanned: 2, incident: 3 } as const;
export const BYBIT_TYPES: Record<AnnouncementKind, { title: string; key: string }> = {
  listing: { title: 'New Listings', key: 'new_crypto' },
  delisting: { title: 'Delistings', key: 'delistings' },
  maintenance: { title: 'Maintenance Updates', key: 'maintenance_updates' },
  other: { title: 'Latest Bybit News', key: 'latest_bybit_news' },
};
const TAGS: Record<AnnouncementKind, string[]> = { listing: ['Spot', 'Spot Listings'], delisting: ['Spot', 'Delistings'], maintenance: ['Maintenance'], other: [] };

function row(w: WindowView): Record<string, unknown> {
  return {
    id: w.id,
    title: w.title,
    state: w.state,
    begin: String(w.begins),
    end: w.ends === null ? '' : String(w.ends),
    href: w.url ?? '',
    ...SERVICES[w.scope],
    uidSuffix: [],
    maintainType: MAINTAIN_TYPE[w.origin],
    env: 1,
  };
}

const status: NoticeSource = (req, view) => {
  const id = req.query.get('id') ?? '';
  const state = req.query.get('state') ?? '';
  const list = view.windows.filter((w) => (id === '' || w.id === id) && (state === '' || w.state === state)).map(row);
  return envelope(view.now, 0, '', { list });
};

const announcements: NoticeSource = (req, view) => {
  const locale = req.query.get('locale') ?? '';
  if (locale === '') return envelope(view.now, 10001, 'params error: locale is required', {});
  const page = intParam(req.query, 'page', 1);
  const limit = intParam(req.query, 'limit', 20, 100);
  if (page === undefined || limit === undefined) return envelope(view.now, 10001, 'params error: page and limit must be positive integers', {});
  const type = req.query.get('type') ?? '';
  const all = view.announcements.filter((a) => type === '' || BYBIT_TYPES[a.kind].key === type);
  const list = pageOf(all, page, limit).map((a) => ({
    title: a.title,
    description: a.title,
    type: BYBIT_TYPES[a.kind],
    tags: TAGS[a.kind],
    url: a.url ?? `https://announcements.bybit.com/en/article/${slug(a.title)}-blt${a.id.toString(16).padStart(16, '0')}/`,
    dateTimestamp: a.published,
    startDateTimestamp: a.published,
    endDateTimestamp: a.published,
    publishTime: a.published,
  }));
  return envelope(view.now, 0, 'OK', { total: all.length, list });
};

export const bybitNotices = { '/v5/system/status': status, '/v5/announcements/index': announcements };
