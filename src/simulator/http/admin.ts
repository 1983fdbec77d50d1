/**
 * The admin API under /-/sim/: JSON in, JSON out, bodies capped at 1 MiB, never weight-counted.
 * The same action objects as scenario steps (without `at`).
 */
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Logger } from '../../lib/logger';
import { answerOtherMethods } from '../../lib/other-methods';
import { ActionError } from '../actions/action-error';
import { FAULT_ENDPOINTS, type FaultEndpoint } from '../actions/faults-schema';
import type { SimulatorControl } from '../control';

export const ADMIN_PREFIX = '/-/sim';
const BODY_LIMIT = '1mb';

function isFaultEndpoint(value: unknown): value is FaultEndpoint {
  return typeof value === 'string' && (FAULT_ENDPOINTS as readonly string[]).includes(value);
}

/** body-parser's errors carry an HTTP status and a type; nothing else we throw does. */
function bodyError(err: unknown): { status: number; message: string } | undefined {
  if (typeof err !== 'object' || err === null || !('type' in err) || !('status' in err)) return undefined;
  const { status, type } = err as { status: unknown; type: unknown };
  if (typeof status !== 'number') return undefined;
  if (type === 'entity.too.large') return { status, message: `body larger than ${BODY_LIMIT}` };
  if (type === 'entity.parse.failed') return { status, message: 'body is not valid JSON (send one action object or an array of them)' };
  return { status, message: err instanceof Error ? err.message : 'bad request body' };
}

export function createAdminRouter(control: SimulatorControl, logger: Logger): express.Router {
  const router = express.Router();
  // Any content type: `curl -d` sends form encoding by default, and the body is JSON regardless.
  router.use(express.json({ limit: BODY_LIMIT, type: () => true }));
  router.post('/actions', (req, res) => {
    res.json({ applied: control.apply(req.body) });
  });
  router.post('/faults', (req, res) => {
    res.json({ applied: 1, id: control.addFault(req.body) });
  });
  router.delete('/faults', (req, res) => {
    const endpoint = req.query.endpoint;
    if (endpoint !== undefined && !isFaultEndpoint(endpoint)) {
      res.status(400).json({ error: `endpoint must be one of: ${FAULT_ENDPOINTS.join(', ')}` });
      return;
    }
    res.json({ cleared: control.clearFaults(endpoint) });
  });
  router.get('/state', (_req, res) => {
    res.json(control.state());
  });
  router.get('/notices', (_req, res) => {
    res.json(control.notices());
  });
  router.post('/reset-limits', (_req, res) => {
    control.resetLimits();
    res.json({ reset: true });
  });
  answerOtherMethods(router, (req, res, allow) => {
    res.status(405).json({ error: `no admin route ${req.method} ${ADMIN_PREFIX}${req.path} (allowed: ${allow})` });
  });
  router.use((req, res) => {
    res.status(404).json({ error: `no admin route ${req.method} ${ADMIN_PREFIX}${req.path}` });
  });
  router.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    if (err instanceof ActionError) {
      res.status(400).json({ error: err.message, problems: err.problems, applied: err.applied });
      return;
    }
    const body = bodyError(err);
    if (body !== undefined) {
      res.status(body.status).json({ error: body.message });
      return;
    }
    logger.error({ err }, 'admin request failed');
    res.status(500).json({ error: 'internal error' });
  });
  return router;
}
