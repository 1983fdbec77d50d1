/**
 * KuCoin's notice sources. Shapes from https://www.kucoin.com/docs/rest/spot-trading/market-data/get-service-status
 * and https://www.kucoin.com/docs-new/rest/spot-trading/market-data/get-announcements:
 * - GET /api/v1/status: `{"code":"200000","data":{"status":"open"|"close"|"cancelonly","msg"}}`
 *   (close: trading stopped for maintenance; cancelonly: orders can be canceled, not placed).
 *   KuCoin has no post-only status: a post-only window reads `close`.
 * - GET /api/v3/announcements?annType=&lang=&currentPage=&pageSize=: `data:{totalNum, totalPage,
 *   currentPage, pageSize, items:[{annId, annTitle, annType:[...], annDesc, cTime, language,
 *   annUrl}]}`, `annId` and `cTime` numbers (ms), `annType` a list of types, newest first,
 *   50 a page by default.
 */
import type { AnnouncementKind } from '../../market/notices';
import type { Answer, NoticeSource } from '../types';
import { intParam, pageOf, slug } from './common';

const ok = (data: unknown): Answer => ({ status: 200, body: { code: '200000', data } });
const error = (code: string, msg: string): Answer => ({ status: 400, body: { code, msg } });

const STATUS = { normal: 'open', maintenance: 'close', cancel_only: 'cancelonly', post_only: 'close' } as const;
export const KUCOIN_ANN_TYPES: Record<AnnouncementKind, string[]> = {
  listing: ['latest-announcements', 'new-listings'],
  delisting: ['latest-announcements', 'delistings'],
  maintenance: ['latest-announcements', 'maintenance-updates'],
  other: ['latest-announcements'],
};

const status: NoticeSource = (_req, view) => ok({ status: STATUS[view.status.state], msg: view.status.window?.title ?? '' });

const announcements: NoticeSource = (req, view) => {
  const currentPage = intParam(req.query, 'currentPage', 1);
  const pageSize = intParam(req.query, 'pageSize', 50, 200);
  if (currentPage === undefined || pageSize === undefined) return error('400100', 'Parameter error: currentPage and pageSize must be positive integers');
  const annType = req.query.get('annType') ?? '';
  const language = req.query.get('lang') ?? 'en_US';
  const all = view.announcements.filter((a) => annType === '' || KUCOIN_ANN_TYPES[a.kind].includes(annType));
  const items = pageOf(all, currentPage, pageSize).map((a) => ({
    annId: a.id,
    annTitle: a.title,
    annType: KUCOIN_ANN_TYPES[a.kind],
    annDesc: a.title,
    cTime: a.published,
    language,
    annUrl: a.url ?? `https://www.kucoin.com/announcement/${slug(a.title)}`,
  }));
  return ok({ totalNum: all.length, totalPage: Math.ceil(all.length / pageSize), currentPage, pageSize, items });
};

export const kucoinNotices = { '/api/v1/status': status, '/api/v3/announcements': announcements };
