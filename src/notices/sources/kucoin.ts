/**
 * KuCoin's notices (notices.md section 1, "kucoin"): `GET /api/v1/status` for the status,
 * `GET /api/v3/announcements` for three types. `annType` comes as a list (some documented
 * values carry spaces, trimmed): delisting wins over maintenance, maintenance over listing.
 * Times are numbers of milliseconds; the success marker is `"code":"200000"`.
 */
import { FieldError, type Json } from '../../exchange/read';
import type { AnnouncementKind, NoticeRead, StatusState } from '../model';
import type { NoticeRequest, NoticeSource } from '../source';
import { decodeJson, errorAnswer, list, object, records, requiredMsTime, requiredText, text } from './read';

export const KUCOIN_ANNOUNCEMENT_TYPES = ['delistings', 'new-listings', 'maintenance-updates'] as const;

const STATES: Readonly<Record<string, StatusState>> = { open: 'normal', close: 'maintenance', cancelonly: 'cancel_only' };

/** The kind of an `annType` list, by precedence. */
export function kucoinKind(types: readonly string[]): AnnouncementKind {
  const trimmed = new Set(types.map((t) => t.trim()));
  if (trimmed.has('delistings')) return 'delisting';
  if (trimmed.has('maintenance-updates')) return 'maintenance';
  if (trimmed.has('new-listings')) return 'listing';
  return 'other';
}

function dataOf(source: string, json: unknown): unknown {
  const body = object(json, 'answer');
  if (body.code !== '200000') throw errorAnswer(source, body, 'code', 'msg');
  return body.data;
}

/** `annId` as text: KuCoin sends a number. */
function idOf(o: Json): string {
  const v = o.annId;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
  return requiredText(o, 'annId');
}

export const kucoinStatus: NoticeSource = {
  name: 'kucoin-status',
  plan: (): NoticeRequest[] => [{ path: '/api/v1/status', weight: 1 }],
  decode(_path: string, body: string): NoticeRead {
    return decodeJson('kucoin-status', body, (json) => {
      const data = object(dataOf('kucoin-status', json), 'data');
      const state = STATES[requiredText(data, 'status')];
      if (state === undefined) throw new FieldError('status is not one KuCoin documents');
      return { status: { state, message: text(data, 'msg'), since: null } };
    });
  },
};

export const kucoinAnnouncements: NoticeSource = {
  name: 'kucoin-announcements',
  plan: (): NoticeRequest[] =>
    KUCOIN_ANNOUNCEMENT_TYPES.map((t) => ({ path: `/api/v3/announcements?annType=${t}&lang=en_US&currentPage=1&pageSize=20`, weight: 1 })),
  decode(_path: string, body: string): NoticeRead {
    return decodeJson('kucoin-announcements', body, (json) => ({
      announcements: records(object(dataOf('kucoin-announcements', json), 'data').items, 'items').map((o) => {
        const types = list(o.annType, 'annType').map((t) => {
          if (typeof t !== 'string') throw new FieldError('annType holds a value that is not a text');
          return t;
        });
        return {
          id: idOf(o),
          kind: kucoinKind(types),
          title: requiredText(o, 'annTitle'),
          url: text(o, 'annUrl'),
          published: requiredMsTime(o, 'cTime'),
          source: 'kucoin-announcements',
        };
      }),
    }));
  },
};
