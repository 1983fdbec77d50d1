/**
 * OKX's notice sources. Shapes from https://www.okx.com/docs-v5/en/#status-get-status and
 * #announcements-get-announcements (field lists and examples also recorded in rust-okx,
 * docs.rs/crate/rust-okx src/api/status/responses.rs and src/api/support/tests.rs):
 * - GET /api/v5/system/status: `{"code":"0","msg":"","data":[{title, state, begin, end,
 *   preOpenBegin, href, serviceType, system, scheDesc, maintType, env}]}`, every value a string,
 *   times in ms, `""` for none. Without `state` it lists scheduled, ongoing and pre_open windows
 *   only; `?state=completed|canceled|...` lists that state. OKX gives a window no id: a
 *   rescheduled window keeps its title and says so in `scheDesc` ("Rescheduled from
 *   2021-01-26T16:30:00.000Z to 2021-01-28T16:30:00.000Z", the docs' own example).
 *   `serviceType`: 0 WebSocket, 5 trading service, 6 block trading, 7 trading bot, 8/9 trading
 *   service in batches, 10 spread, 11 copy trading, 99 others (no code for deposits and
 *   withdrawals: a funding window is 99). `maintType` 1 scheduled, 2 unscheduled, 3 incident;
 *   `env` 1 production, 2 demo. A post-only window is OKX's `pre_open`, from `preOpenBegin`.
 * - GET /api/v5/support/announcements?annType=&page=: `data:[{details:[{annType, title, url,
 *   pTime, businessPTime}], totalPage}]`, newest first, 20 a page.
 */
import type { AnnouncementKind, WindowScope, WindowView } from '../../market/notices';
import type { Answer, NoticeSource } from '../types';
import { intParam, pageOf, slug } from './common';

const ok = (data: unknown): Answer => ({ status: 200, body: { code: '0', msg: '', data } });
const error = (status: number, code: string, msg: string): Answer => ({ status, body: { code, data: [], msg } });

const STATES = ['scheduled', 'ongoing', 'pre_open', 'completed', 'canceled'];
const LISTED = new Set(['scheduled', 'ongoing', 'pre_open']);
const SERVICE_TYPE: Record<WindowScope, string> = { exchange: '5', trading: '5', api: '0', funding: '99', other: '99' };
const MAINT_TYPE = { planned: '1', unplanned: '2', incident: '3' } as const;
export const OKX_ANN_TYPES: Record<AnnouncementKind, string> = {
  listing: 'announcements-new-listings',
  delisting: 'announcements-delistings',
  maintenance: 'announcements-deposit-withdrawal-suspension-resumption',
  other: 'announcements-others',
};
const PAGE_SIZE = 20;

function stateOf(w: WindowView): string {
  return w.state === 'ongoing' && w.status === 'post_only' ? 'pre_open' : w.state;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function row(w: WindowView): Record<string, string> {
  const state = stateOf(w);
  return {
    title: w.title,
    state,
    begin: String(w.begins),
    end: w.ends === null ? '' : String(w.ends),
    preOpenBegin: state === 'pre_open' ? String(w.begins) : '',
    href: w.url ?? '',
    serviceType: SERVICE_TYPE[w.scope],
    system: 'unified',
    scheDesc: w.rescheduledFrom === null ? '' : `Rescheduled from ${iso(w.rescheduledFrom)} to ${iso(w.begins)}`,
    maintType: MAINT_TYPE[w.origin],
    env: '1',
  };
}

const status: NoticeSource = (req, view) => {
  const state = req.query.get('state') ?? '';
  if (state !== '' && !STATES.includes(state)) return error(400, '51000', 'Parameter state error');
  return ok(view.windows.filter((w) => (state === '' ? LISTED.has(stateOf(w)) : stateOf(w) === state)).map(row));
};

const announcements: NoticeSource = (req, view) => {
  const page = intParam(req.query, 'page', 1);
  if (page === undefined) return error(400, '51000', 'Parameter page error');
  const annType = req.query.get('annType') ?? '';
  const all = view.announcements.filter((a) => annType === '' || OKX_ANN_TYPES[a.kind] === annType);
  const details = pageOf(all, page, PAGE_SIZE).map((a) => ({
    annType: OKX_ANN_TYPES[a.kind],
    title: a.title,
    url: a.url ?? `https://www.okx.com/help/${slug(a.title)}`,
    pTime: String(a.published),
    businessPTime: String(a.published),
  }));
  return ok([{ details, totalPage: String(Math.ceil(all.length / PAGE_SIZE)) }]);
};

export const okxNotices = { '/api/v5/system/status': status, '/api/v5/support/announcements': announcements };
