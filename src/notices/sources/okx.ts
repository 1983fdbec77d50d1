/**
 * OKX's notices (notices.md section 1, "okx"): `GET /api/v5/system/status` for the maintenance
 * windows (and the status derived from them), asking `?state=completed` and `?state=canceled`
 * in the same read only when a known window left the list (the second only when the first did
 * not have them all); `GET /api/v5/support/announcements` for three types,
 * in English. Every value is a string, times strings of milliseconds with `""` for none; the
 * success marker is `"code":"0"`.
 */
import { FieldError, type Json } from '../../exchange/read';
import type { AnnouncementKind, MaintenanceState, NoticeRead, Scope } from '../model';
import type { KnownWindow, NoticeRequest, NoticeSource } from '../source';
import { code, decodeJson, errorAnswer, msTime, object, originOf, queryOf, records, requiredMsTime, requiredText, stableId, text, titleScope } from './read';
import { statusOfWindows } from './window-status';

const STATUS_PATH = '/api/v5/system/status';
/** The lists a window that left the current one may be in (the `state` values OKX documents for them). */
const FINISHED = ['completed', 'canceled'] as const;
const ANNOUNCEMENTS_PATH = '/api/v5/support/announcements';
/** OKX answers announcements in the language this header names. */
const ENGLISH = { 'Accept-Language': 'en-US' } as const;

/** The types read, and the kind each is. */
export const OKX_ANNOUNCEMENT_TYPES: Readonly<Record<string, AnnouncementKind>> = {
  'announcements-delistings': 'delisting',
  'announcements-new-listings': 'listing',
  'announcements-deposit-withdrawal-suspension-resumption': 'maintenance',
};

const STATES: Readonly<Record<string, MaintenanceState>> = {
  scheduled: 'scheduled',
  ongoing: 'ongoing',
  pre_open: 'ongoing',
  completed: 'completed',
  canceled: 'canceled',
  cancelled: 'canceled',
};

/**
 * `serviceType`: 0 WebSocket; 5, 8, 9 trading (all, in batches of accounts, of products); 6, 7,
 * 10, 11 block trading, bots, spread, copy trading; 99 others — OKX has no code for deposits and
 * withdrawals, so a 99 (or unknown) window is funding when its title says so, else unknown.
 */
function scopeOf(serviceType: string | null, title: string): Scope {
  if (serviceType === '0') return 'api';
  if (serviceType === '5' || serviceType === '8' || serviceType === '9') return 'trading';
  if (serviceType === '6' || serviceType === '7' || serviceType === '10' || serviceType === '11') return 'other';
  return titleScope(title);
}

/** The `data` list of OKX's envelope; any `code` but "0" is an error answer. */
function dataOf(source: string, json: unknown): unknown {
  const body = object(json, 'answer');
  if (body.code !== '0' && body.code !== 0) throw errorAnswer(source, body, 'code', 'msg');
  return body.data;
}

export const okxStatus: NoticeSource = {
  name: 'okx-status',
  // A window that leaves the list is asked about in the same read; judged by its times only while that follow-up fails.
  vanished: 'ask',
  // "Rate limit: 1 request per 5 seconds" (GET /api/v5/system/status, whatever its `state`).
  gapMs: 5_000,
  plan: (): NoticeRequest[] => [{ path: STATUS_PATH, weight: 1 }],
  followUp(missing: readonly KnownWindow[], asked: readonly string[], now: number): NoticeRequest | undefined {
    // The likelier list first (a window that had begun most likely completed), the other only while some are still missing.
    const begun = missing.some((w) => w.state !== 'scheduled' || now >= w.begins);
    const next = (begun ? FINISHED : [...FINISHED].reverse()).map((state) => `${STATUS_PATH}?state=${state}`).find((path) => !asked.includes(path));
    return next === undefined ? undefined : { path: next, weight: 1 };
  },
  decode(path: string, body: string): NoticeRead {
    return decodeJson('okx-status', body, (json) => {
      const preOpen = new Set<string>();
      const maintenance = [];
      for (const o of records(dataOf('okx-status', json), 'data')) {
        const env = code(o, 'env');
        // The demo environment's windows close nothing a desk trades on.
        if (env === '2') continue;
        const title = requiredText(o, 'title');
        const serviceType = code(o, 'serviceType');
        const raw = requiredText(o, 'state');
        const state = STATES[raw];
        if (state === undefined) throw new FieldError('state is not one OKX documents');
        // No id: a hash of what stays when OKX reschedules a window (begin moves, scheDesc says so).
        const id = stableId('okx', [title, serviceType ?? '', env ?? '']);
        if (raw === 'pre_open') preOpen.add(id);
        maintenance.push({
          id,
          title,
          state,
          begins: requiredMsTime(o, 'begin'),
          ends: msTime(o, 'end'),
          origin: originOf(code(o, 'maintType')),
          scope: scopeOf(serviceType, title),
          coins: [],
          symbols: [],
          url: text(o, 'href'),
          source: 'okx-status',
        });
      }
      // Only the current list (no `state`) says what is going on now.
      if (queryOf(path, 'state') !== null) return { maintenance };
      return { status: statusOfWindows(maintenance, preOpen), maintenance };
    });
  },
};

export const okxAnnouncements: NoticeSource = {
  name: 'okx-announcements',
  plan(): NoticeRequest[] {
    return Object.keys(OKX_ANNOUNCEMENT_TYPES).map((t) => ({ path: `${ANNOUNCEMENTS_PATH}?annType=${t}&page=1`, weight: 1, headers: ENGLISH }));
  },
  decode(path: string, body: string): NoticeRead {
    const kind = OKX_ANNOUNCEMENT_TYPES[queryOf(path, 'annType') ?? ''] ?? 'other';
    return decodeJson('okx-announcements', body, (json) => {
      const announcements = [];
      for (const page of records(dataOf('okx-announcements', json), 'data')) {
        for (const o of records((page as Json).details, 'details')) {
          const url = requiredText(o, 'url');
          announcements.push({ id: url, kind, title: requiredText(o, 'title'), url, published: requiredMsTime(o, 'pTime'), source: 'okx-announcements' });
        }
      }
      return { announcements };
    });
  },
};

export const OKX_SOURCES = [okxStatus, okxAnnouncements] as const;
