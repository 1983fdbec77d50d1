/**
 * Bybit's notices (notices.md section 1, "bybit"): `GET /v5/system/status` for the windows (and
 * the status derived from them), `GET /v5/announcements/index` for three types. Status times
 * are strings of milliseconds, announcement times numbers; `maintainType` and `env` come as
 * numbers or strings; the success marker is `"retCode":0`.
 */
import { FieldError } from '../../exchange/read';
import type { AnnouncementKind, MaintenanceState, NoticeRead, Scope } from '../model';
import type { NoticeRequest, NoticeSource } from '../source';
import { code, codes, decodeJson, errorAnswer, msTime, object, originOf, queryOf, records, requiredMsTime, requiredText, text, titleScope } from './read';
import { statusOfWindows } from './window-status';

export const BYBIT_ANNOUNCEMENT_TYPES: Readonly<Record<string, AnnouncementKind>> = {
  delistings: 'delisting',
  new_crypto: 'listing',
  maintenance_updates: 'maintenance',
};

const STATES: Readonly<Record<string, MaintenanceState>> = {
  scheduled: 'scheduled',
  ongoing: 'ongoing',
  completed: 'completed',
  canceled: 'canceled',
  cancelled: 'canceled',
};

/**
 * `serviceTypes` 1, 2, 3 (trading, with `product` 2 spot, none meaning all) and 4, 5 (the API).
 * Bybit has no code for deposits and withdrawals: a window naming no service is funding when its
 * title says so, else unknown.
 */
function scopeOf(serviceTypes: readonly number[], product: readonly number[], title: string): Scope {
  if (serviceTypes.some((t) => t >= 1 && t <= 3)) return product.length === 0 || product.includes(2) ? 'trading' : 'other';
  if (serviceTypes.some((t) => t === 4 || t === 5)) return 'api';
  return titleScope(title);
}

/** The `result` of Bybit's envelope; any `retCode` but 0 is an error answer. */
function resultOf(source: string, json: unknown) {
  const body = object(json, 'answer');
  if (body.retCode !== 0 && body.retCode !== '0') throw errorAnswer(source, body, 'retCode', 'retMsg');
  return object(body.result, 'result');
}

export const bybitStatus: NoticeSource = {
  name: 'bybit-status',
  plan: (): NoticeRequest[] => [{ path: '/v5/system/status', weight: 1 }],
  decode(_path: string, body: string): NoticeRead {
    return decodeJson('bybit-status', body, (json) => {
      const maintenance = [];
      for (const o of records(resultOf('bybit-status', json).list, 'list')) {
        // The demo environment's windows close nothing a desk trades on.
        if (code(o, 'env') === '2') continue;
        const state = STATES[requiredText(o, 'state')];
        if (state === undefined) throw new FieldError('state is not one Bybit documents');
        const title = requiredText(o, 'title');
        maintenance.push({
          id: requiredText(o, 'id'),
          title,
          state,
          begins: requiredMsTime(o, 'begin'),
          ends: msTime(o, 'end'),
          origin: originOf(code(o, 'maintainType')),
          scope: scopeOf(codes(o, 'serviceTypes'), codes(o, 'product'), title),
          coins: [],
          symbols: [],
          url: text(o, 'href'),
          source: 'bybit-status',
        });
      }
      return { status: statusOfWindows(maintenance), maintenance };
    });
  },
};

export const bybitAnnouncements: NoticeSource = {
  name: 'bybit-announcements',
  plan: (): NoticeRequest[] =>
    Object.keys(BYBIT_ANNOUNCEMENT_TYPES).map((t) => ({ path: `/v5/announcements/index?locale=en-US&type=${t}&page=1&limit=20`, weight: 1 })),
  decode(path: string, body: string): NoticeRead {
    const kind = BYBIT_ANNOUNCEMENT_TYPES[queryOf(path, 'type') ?? ''] ?? 'other';
    return decodeJson('bybit-announcements', body, (json) => ({
      announcements: records(resultOf('bybit-announcements', json).list, 'list').map((o) => {
        const url = requiredText(o, 'url');
        const published = msTime(o, 'publishTime') ?? requiredMsTime(o, 'dateTimestamp');
        return { id: url, kind, title: requiredText(o, 'title'), url, published, source: 'bybit-announcements' };
      }),
    }));
  },
};
