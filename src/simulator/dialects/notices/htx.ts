/**
 * HTX's notice source: GET /v2/market-status (https://www.htx.com/en-us/opend/newApiPages/,
 * Reference Data, "Get Market Status"): `{"code":200,"message":"success","data":{"marketStatus":1}}`
 * normally; while halted (2) or cancel-only (3) also `haltStartTime`, `haltEndTime` (ms; left
 * out when unknown), `haltReason` (2 emergency maintenance, 3 scheduled maintenance) and
 * `affectedSymbols` (`all`, or symbols joined by commas). HTX has no post-only status: a
 * post-only window reads cancel-only.
 */
import type { NoticeSource } from '../types';

const MARKET_STATUS = { maintenance: 2, cancel_only: 3, post_only: 3 } as const;

const marketStatus: NoticeSource = (_req, view, pairs) => {
  const w = view.status.window;
  if (view.status.state === 'normal' || w === null) return { status: 200, body: { code: 200, message: 'success', data: { marketStatus: 1 } } };
  const symbols = w.scope === 'trading' && w.coins.length > 0
    ? pairs.filter((p) => w.coins.includes(p.base)).map((p) => `${p.base}${p.quote}`.toLowerCase())
    : [];
  const data = {
    marketStatus: MARKET_STATUS[view.status.state],
    haltStartTime: w.begins,
    ...(w.ends === null ? {} : { haltEndTime: w.ends }),
    haltReason: w.origin === 'planned' ? 3 : 2,
    affectedSymbols: symbols.length > 0 ? symbols.join(',') : 'all',
  };
  return { status: 200, body: { code: 200, message: 'success', data } };
};

export const htxNotices = { '/v2/market-status': marketStatus };
