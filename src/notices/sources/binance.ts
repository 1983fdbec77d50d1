/**
 * Binance's notices (notices.md section 1, "binance"): `GET /sapi/v1/system/status` (`status`
 * 0 normal, 1 maintenance), and, only with `notices: { unofficial: true }`, the undocumented
 * list behind binance.com's announcement pages (`code` "000000" its success marker; catalogs
 * 48 new listings, 161 delistings, 157 wallet maintenance; `releaseDate` a number of ms).
 */
import { FieldError } from '../../exchange/read';
import type { AnnouncementKind, NoticeRead } from '../model';
import type { NoticeRequest, NoticeSource } from '../source';
import { code, decodeJson, errorAnswer, object, records, requiredMsTime, requiredText, text } from './read';

/** The site whose pages the unofficial list serves (its base when the exchange sets no base_url). */
export const BINANCE_SITE = 'https://www.binance.com';

const CATALOGS: Readonly<Record<string, AnnouncementKind>> = { '48': 'listing', '161': 'delisting', '157': 'maintenance' };

export const binanceStatus: NoticeSource = {
  name: 'binance-status',
  plan: (): NoticeRequest[] => [{ path: '/sapi/v1/system/status', weight: 1 }],
  decode(_path: string, body: string): NoticeRead {
    return decodeJson('binance-status', body, (json) => {
      const o = object(json, 'answer');
      // An error answer is Binance's {"code","msg"} (the client reads those of other statuses).
      if (o.status === undefined && o.code !== undefined) throw errorAnswer('binance-status', o, 'code', 'msg');
      const status = code(o, 'status');
      if (status !== '0' && status !== '1') throw new FieldError('status is not 0 or 1');
      return { status: { state: status === '0' ? 'normal' : 'maintenance', message: text(o, 'msg'), since: null } };
    });
  },
};

/** The unofficial announcement list at `base` (binance.com, or the exchange's base_url when it sets one). */
export function binanceAnnouncements(baseUrl: string | undefined): NoticeSource {
  return {
    name: 'binance-announcements',
    ...(baseUrl !== undefined && { baseUrl }),
    plan: (): NoticeRequest[] => [{ path: '/bapi/composite/v1/public/cms/article/list/query?type=1&pageNo=1&pageSize=20', weight: 1 }],
    decode(_path: string, body: string): NoticeRead {
      return decodeJson('binance-announcements', body, (json) => {
        const o = object(json, 'answer');
        if (o.code !== '000000') throw errorAnswer('binance-announcements', o, 'code', 'message');
        const announcements = [];
        for (const catalog of records(object(o.data, 'data').catalogs, 'catalogs')) {
          const kind = CATALOGS[code(catalog, 'catalogId') ?? ''] ?? 'other';
          for (const a of records(catalog.articles, 'articles')) {
            const id = requiredText(a, 'code');
            announcements.push({
              id,
              kind,
              title: requiredText(a, 'title'),
              url: `${BINANCE_SITE}/en/support/announcement/${encodeURIComponent(id)}`,
              published: requiredMsTime(a, 'releaseDate'),
              source: 'binance-announcements',
            });
          }
        }
        return { announcements };
      });
    },
  };
}
