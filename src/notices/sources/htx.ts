/**
 * HTX's notices (notices.md section 1, "htx"): `GET /v2/market-status`, one status and, while the
 * market is halted or cancel-only, one ongoing window (`ends` its estimated end, null when HTX
 * cannot say; `symbols` those affected, or scope exchange for `all`). Times are numbers of
 * milliseconds; the success marker is `"code":200`.
 */
import { FieldError, type Json } from '../../exchange/read';
import type { Maintenance, NoticeRead, Origin, StatusState } from '../model';
import type { NoticeRequest, NoticeSource } from '../source';
import { code, decodeJson, errorAnswer, msTime, object, text } from './read';

const STATES: Readonly<Record<string, StatusState>> = { '1': 'normal', '2': 'maintenance', '3': 'cancel_only' };
const ORIGINS: Readonly<Record<string, Origin>> = { '2': 'unplanned', '3': 'planned' };
const TITLES: Readonly<Record<string, string>> = { '2': 'Market halted', '3': 'Market cancel-only' };

/** The window of a halt: one at a time, named by when it began (the same halt keeps its id). */
function haltWindow(data: Json, marketStatus: string, now: number): Omit<Maintenance, 'exchange'> {
  const start = msTime(data, 'haltStartTime');
  const affected = text(data, 'affectedSymbols');
  const all = affected === null || affected.trim().toLowerCase() === 'all';
  return {
    id: `htx-halt-${start ?? 'unknown'}`,
    title: TITLES[marketStatus] as string,
    state: 'ongoing',
    begins: start ?? now,
    ends: msTime(data, 'haltEndTime'),
    origin: ORIGINS[code(data, 'haltReason') ?? ''] ?? 'unknown',
    scope: all ? 'exchange' : 'trading',
    coins: [],
    symbols: all ? [] : affected.split(',').map((s) => s.trim().toUpperCase()).filter((s) => s !== ''),
    url: null,
    source: 'htx-status',
  };
}

export const htxStatus: NoticeSource = {
  name: 'htx-status',
  plan: (): NoticeRequest[] => [{ path: '/v2/market-status', weight: 1 }],
  decode(_path: string, body: string, now: number): NoticeRead {
    return decodeJson('htx-status', body, (json) => {
      const o = object(json, 'answer');
      if (o.code !== 200) throw errorAnswer('htx-status', o, 'code', 'message');
      const data = object(o.data, 'data');
      const marketStatus = code(data, 'marketStatus') ?? '';
      const state = STATES[marketStatus];
      if (state === undefined) throw new FieldError('marketStatus is not 1, 2 or 3');
      return {
        status: { state, message: null, since: state === 'normal' ? null : msTime(data, 'haltStartTime') },
        maintenance: state === 'normal' ? [] : [haltWindow(data, marketStatus, now)],
      };
    });
  },
};
