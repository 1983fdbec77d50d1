/** The reference exchange as an express app, without listening: for in-process tests and benchmarks. */
import express, { type NextFunction, type Request, type Response } from 'express';
import { ERROR_CODES } from '../exchange/dialects/spot-v3/wire';
import { createControl, type SimulatorControl } from './control';
import { createFaultBoard } from './faults/board';
import { ADMIN_PREFIX, createAdminRouter } from './http/admin';
import { createApiHandler } from './http/api';
import { createDialectApiHandler } from './http/dialect-api';
import { rendererOf } from './dialects/registry';
import { createLive } from './http/live';
import { createStatuspageRouter, STATUSPAGE_PREFIX } from './http/statuspage';
import { errorBody, send } from './http/reply';
import { createWeightLimiter } from './http/weight-limiter';
import { createCoinsBody } from './market/coins-body';
import { createMarket } from './market/create-market';
import type { Market } from './market/model';
import { resolveOptions, type SimulatorOptions } from './options';
import { createTickerBook } from './ticker/book';

export interface Simulator {
  app: express.Express;
  control: SimulatorControl;
  /** The live market (coins, networks, symbols); change it through control.apply. */
  state: Market;
  /** Ends delayed, hung and streaming answers. */
  dispose(): void;
}

export function createSimulator(options: SimulatorOptions = {}): Simulator {
  const o = resolveOptions(options);
  const market = createMarket({ seed: o.seed, coins: o.coins });
  const faults = createFaultBoard(o.clock);
  const limiter = createWeightLimiter({ ...o.weightLimit, banAfter: o.banAfter, banMs: o.banMs });
  const live = createLive();
  const renderer = rendererOf(o.dialect);
  const control = createControl({ market, faults, limiter, clock: o.clock, seed: o.seed, scenario: o.scenario, logger: o.logger, networkIds: renderer?.networkIds });
  const beforeRequest = (): void => {
    control.tick();
  };
  const api = renderer === undefined
    ? createApiHandler({
      market, coins: createCoinsBody(market), tickers: createTickerBook(market), faults, limiter, live,
      clock: o.clock, symbolsCap: o.symbolsCap, beforeRequest,
    })
    : createDialectApiHandler({
      renderer, market, tickers: createTickerBook(market), faults, limiter, live, clock: o.clock, credentials: o.credentials, beforeRequest,
    });

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // Due scenario steps first, on the admin API too, so /-/sim/state never lags the timeline.
  const tickFirst = (_req: Request, _res: Response, next: NextFunction): void => {
    control.tick();
    next();
  };
  app.use(ADMIN_PREFIX, tickFirst, createAdminRouter(control, o.logger));
  app.use(STATUSPAGE_PREFIX, tickFirst, createStatuspageRouter(market, o.clock, o.dialect));
  app.use((req, res) => api(req, res));
  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    o.logger.error({ err }, 'request failed');
    if (!res.headersSent) send(res, 500, errorBody(ERROR_CODES.unknownPath, 'An unknown error occurred while processing the request.'));
    else res.destroy();
  });
  return { app, control, state: market, dispose: () => live.dispose() };
}
