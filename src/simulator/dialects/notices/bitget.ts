/**
 * Bitget's notice source: GET /api/v2/public/annoucements?language=&annType= (Bitget's spelling;
 * https://www.bitget.com/api-doc/common/notice/Get-All-Notices): `{"code":"00000","msg":"success",
 * "requestTime":ms,"data":[{annId, annTitle, annDesc, cTime, language, annUrl, annType,
 * annSubType}]}`, every value a string (`cTime` ms), newest first; `language` required. Types:
 * coin_listings, symbol_delisting, maintenance_system_updates, latest_news.
 */
import type { AnnouncementKind } from '../../market/notices';
import type { NoticeSource } from '../types';

export const BITGET_ANN_TYPES: Record<AnnouncementKind, string> = {
  listing: 'coin_listings',
  delisting: 'symbol_delisting',
  maintenance: 'maintenance_system_updates',
  other: 'latest_news',
};
const SUB_TYPES: Record<AnnouncementKind, string> = { listing: 'spot', delisting: 'spot', maintenance: '', other: '' };

const announcements: NoticeSource = (req, view) => {
  const language = req.query.get('language') ?? '';
  if (language === '') return { status: 400, body: { code: '400172', msg: 'language can not be empty', requestTime: view.now, data: null } };
  const annType = req.query.get('annType') ?? '';
  const data = view.announcements.filter((a) => annType === '' || BITGET_ANN_TYPES[a.kind] === annType).map((a) => ({
    annId: String(a.id),
    annTitle: a.title,
    annDesc: a.title,
    cTime: String(a.published),
    language,
    annUrl: a.url ?? `https://www.bitget.com/support/articles/${a.id}`,
    annType: BITGET_ANN_TYPES[a.kind],
    annSubType: SUB_TYPES[a.kind],
  }));
  return { status: 200, body: { code: '00000', msg: 'success', requestTime: view.now, data } };
};

export const bitgetNotices = { '/api/v2/public/annoucements': announcements };
