/**
 * The reference exchange's Statuspage (notices.md 1, `notices: { statuspage: URL }`), served
 * whatever dialect it speaks, under its own prefix beside the admin API: outside every
 * exchange's paths and never weight-counted. `statuspage: http://HOST:PORT/-/statuspage` makes
 * spotwatch read GET /-/statuspage/api/v2/summary.json.
 */
import express from 'express';
import type { Clock } from '../../lib/clock';
import { statuspageSummary } from '../dialects/notices/statuspage';
import type { Market } from '../market/model';
import { noticeView } from '../market/notices';

export const STATUSPAGE_PREFIX = '/-/statuspage';

export function createStatuspageRouter(market: Market, clock: Clock, dialect: string): express.Router {
  const router = express.Router();
  router.get('/api/v2/summary.json', (req, res) => {
    const now = clock.now();
    const base = `${req.protocol}://${req.get('host') ?? 'localhost'}${STATUSPAGE_PREFIX}`;
    const answer = statuspageSummary(noticeView(market.notices, now).windows, base, `Reference exchange (${dialect})`, now);
    res.status(answer.status).json(answer.body);
  });
  router.use((req, res) => {
    res.status(404).json({ error: `no Statuspage route ${req.method} ${STATUSPAGE_PREFIX}${req.path} (GET ${STATUSPAGE_PREFIX}/api/v2/summary.json)` });
  });
  return router;
}
