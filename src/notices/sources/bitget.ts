/**
 * Bitget's notices (notices.md section 1, "bitget"): `GET /api/v2/public/annoucements` (Bitget's
 * spelling) for three types, each record's kind its request's type. Times are strings of
 * milliseconds; the success marker is `"code":"00000"`.
 */
import type { AnnouncementKind, NoticeRead } from '../model';
import type { NoticeRequest, NoticeSource } from '../source';
import { decodeJson, errorAnswer, object, queryOf, records, requiredMsTime, requiredText, text } from './read';

export const BITGET_ANNOUNCEMENT_TYPES: Readonly<Record<string, AnnouncementKind>> = {
  symbol_delisting: 'delisting',
  coin_listings: 'listing',
  maintenance_system_updates: 'maintenance',
};

export const bitgetAnnouncements: NoticeSource = {
  name: 'bitget-announcements',
  plan: (): NoticeRequest[] => Object.keys(BITGET_ANNOUNCEMENT_TYPES).map((t) => ({ path: `/api/v2/public/annoucements?language=en_US&annType=${t}`, weight: 1 })),
  decode(path: string, body: string): NoticeRead {
    const kind = BITGET_ANNOUNCEMENT_TYPES[queryOf(path, 'annType') ?? ''] ?? 'other';
    return decodeJson('bitget-announcements', body, (json) => {
      const o = object(json, 'answer');
      if (o.code !== '00000') throw errorAnswer('bitget-announcements', o, 'code', 'msg');
      return {
        announcements: records(o.data, 'data').map((a) => ({
          id: requiredText(a, 'annId'),
          kind,
          title: requiredText(a, 'annTitle'),
          url: text(a, 'annUrl'),
          published: requiredMsTime(a, 'cTime'),
          source: 'bitget-announcements',
        })),
      };
    });
  },
};
