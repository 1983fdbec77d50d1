/**
 * Binance's notice sources:
 * - GET /sapi/v1/system/status (https://developers.binance.com/docs/wallet/others/system-status):
 *   `{"status":0,"msg":"normal"}` or `{"status":1,"msg":"system_maintenance"}`; public. Binance
 *   has no cancel-only or post-only status: any closing window reads 1.
 * - GET /bapi/composite/v1/public/cms/article/list/query?type=1&pageNo=&pageSize= on
 *   www.binance.com: undocumented by Binance. The shape is the one its website reads, as
 *   recorded in public scrapers (rsshub lib/routes/binance, ToucanBran/crypto-announcment-scraper):
 *   `{"code":"000000","message":null,"messageDetail":null,"data":{"catalogs":[{catalogId,
 *   parentCatalogId, icon, catalogName, description, catalogType, total, articles:[{id, code,
 *   title, type, releaseDate}], catalogs:[]}]},"success":true}`, `releaseDate` a number of ms;
 *   catalogs 48 new listings, 49 news, 157 wallet maintenance, 161 delisting; an article's
 *   page is https://www.binance.com/en/support/announcement/{code}.
 */
import type { AnnouncementKind, SimAnnouncement } from '../../market/notices';
import type { Answer, NoticeSource } from '../types';
import { intParam, pageOf } from './common';

const CATALOGS: { id: number; name: string; kind: AnnouncementKind }[] = [
  { id: 48, name: 'New Cryptocurrency Listing', kind: 'listing' },
  { id: 49, name: 'Latest Binance News', kind: 'other' },
  { id: 161, name: 'Delisting', kind: 'delisting' },
  { id: 157, name: 'Wallet Maintenance Updates', kind: 'maintenance' },
];

/** A 32-hex article code, stable for an announcement id. */
export function articleCode(a: SimAnnouncement): string {
  return a.id.toString(16).padStart(32, '0');
}

const status: NoticeSource = (_req, view) => ({
  status: 200,
  body: view.status.state === 'normal' ? { status: 0, msg: 'normal' } : { status: 1, msg: 'system_maintenance' },
});

const articles: NoticeSource = (req, view) => {
  const pageNo = intParam(req.query, 'pageNo', 1);
  const pageSize = intParam(req.query, 'pageSize', 20, 50);
  if (pageNo === undefined || pageSize === undefined) {
    return { status: 200, body: { code: '000002', message: 'illegal parameter', messageDetail: null, data: null, success: false } } satisfies Answer;
  }
  const catalogs = CATALOGS.map((c) => {
    const all = view.announcements.filter((a) => a.kind === c.kind);
    return {
      catalogId: c.id, parentCatalogId: null, icon: '', catalogName: c.name, description: null, catalogType: 1, total: all.length,
      articles: pageOf(all, pageNo, pageSize).map((a) => ({ id: a.id, code: articleCode(a), title: a.title, type: 1, releaseDate: a.published })),
      catalogs: [],
    };
  });
  return { status: 200, body: { code: '000000', message: null, messageDetail: null, data: { catalogs }, success: true } };
};

export const binanceNotices = { '/sapi/v1/system/status': status, '/bapi/composite/v1/public/cms/article/list/query': articles };
