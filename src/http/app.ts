import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { apiRouter, methodNotAllowed, type ApiSource } from './api';
import { bearer } from './auth';
import { feedRouter } from './feed';
import { historyApiRouter, type HistorySource } from './history-api';
import { noticesApiRouter } from './notices-api';
import type { NoticeLists } from '../notices/book-json';
import { answerOtherMethods } from '../lib/other-methods';
import { STATUS_CSS, STATUS_ICON, STATUS_JS } from './status-assets';
import { statusQuery } from './status-query';
import type { StatusQuery } from './status-networks';
import { renderStatusPage, type StatusView } from './status-page';

/** What the HTTP surface reads from the running daemon. */
export interface HttpSource {
  /** True once every exchange has been polled successfully (both endpoints). */
  ready(): boolean;
  /** The poll path is alive: /healthz answers 503 when it is not (a stalled or ended engine thread). */
  alive?(): boolean;
  /** Brings what the views read up to date; awaited before every route that shows an exchange's state. */
  refresh?(): Promise<void>;
  metrics: {
    contentType: string;
    render(): Promise<string>;
    renderGzip(): Promise<Buffer[]>;
  };
  api: ApiSource;
  /** When set, /api and /-/ require `Authorization: Bearer <token>`. */
  bearerToken?: string | undefined;
  reload(): Promise<{ ok: true } | { ok: false; problems: string[] }>;
  statusView(query?: StatusQuery): StatusView;
  /** Each watched exchange's notice lists (GET /api/v1/notices; absent: every list empty). */
  notices?(): Iterable<NoticeLists>;
  /** Outages, availability, the Atom feed and badges (absent: not served). */
  history?: HistorySource;
  /** An unexpected error of a request (answered 500): told once, to be logged. */
  onError?(err: unknown): void;
}

/** What a client did wrong, by body-parser's error types: a status and a text without internals. */
const CLIENT_ERRORS: Record<string, string> = {
  'entity.parse.failed': 'body is not valid JSON',
  'entity.too.large': 'body too large',
  'encoding.unsupported': 'unsupported content encoding',
  'charset.unsupported': 'unsupported charset',
  'request.aborted': 'request aborted',
  'request.size.invalid': 'body shorter or longer than its content-length',
};

/** A 4xx error (a status on the error, as body-parser and the router set it), or undefined. */
function clientError(err: unknown): { status: number; error: string } | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const { status, type, limit } = err as { status?: unknown; type?: unknown; limit?: unknown };
  if (typeof status !== 'number' || status < 400 || status > 499) return undefined;
  if (type === 'entity.too.large' && typeof limit === 'number') return { status, error: `body larger than ${limit} bytes` };
  return { status, error: (typeof type === 'string' ? CLIENT_ERRORS[type] : undefined) ?? 'bad request' };
}

/** The status page's policy: its own script and style sheet only, a form that submits to itself, no framing. */
export const STATUS_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

export function createApp(source: HttpSource): Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.get('/', async (req, res) => {
    await source.refresh?.();
    // Only our own script and style sheet, from our own paths: nothing inline runs, whatever an exchange's text might try.
    res.setHeader('content-security-policy', STATUS_CSP);
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('referrer-policy', 'no-referrer');
    res.type('html').send(renderStatusPage(source.statusView(statusQuery(req.query))));
  });
  app.get('/status.css', (_req, res) => {
    res.setHeader('cache-control', 'public, max-age=300');
    res.setHeader('x-content-type-options', 'nosniff');
    res.type('text/css').send(STATUS_CSS);
  });
  app.get('/favicon.svg', (_req, res) => {
    res.setHeader('cache-control', 'public, max-age=86400');
    res.type('image/svg+xml').send(STATUS_ICON);
  });
  app.get('/status.js', (_req, res) => {
    res.setHeader('cache-control', 'public, max-age=300');
    res.setHeader('x-content-type-options', 'nosniff');
    res.type('text/javascript').send(STATUS_JS);
  });
  app.get('/healthz', (_req, res) => {
    if (source.alive?.() === false) res.status(503).type('text/plain').send('not alive: the engine has stopped answering\n');
    else res.type('text/plain').send('ok\n');
  });
  app.get('/readyz', (_req, res) => {
    const ready = source.ready();
    res.status(ready ? 200 : 503).type('text/plain').send(ready ? 'ready\n' : 'not ready: not every exchange has been polled successfully\n');
  });
  app.get('/metrics', async (req, res) => {
    res.setHeader('content-type', source.metrics.contentType);
    res.setHeader('vary', 'accept-encoding');
    if (/\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
      res.setHeader('content-encoding', 'gzip');
      const parts = await source.metrics.renderGzip();
      res.setHeader('content-length', String(parts.reduce((n, p) => n + p.length, 0)));
      for (const p of parts) res.write(p);
      res.end();
      return;
    }
    res.end(await source.metrics.render());
  });
  // What follows shows the exchanges' state: brought up to date first (a question to the engine, when a poll changed it).
  app.use(async (_req, _res, next) => {
    await source.refresh?.();
    next();
  });
  const auth = bearer(source.bearerToken);
  app.use('/api/v1', auth, apiRouter(source.api));
  app.use('/api/v1', auth, noticesApiRouter(() => source.notices?.() ?? []));
  if (source.history !== undefined) {
    app.use('/api/v1', auth, historyApiRouter(source.history));
    app.use(feedRouter(source.history));
  }
  app.post('/-/reload', auth, async (_req, res) => {
    const result = await source.reload();
    if (result.ok) res.json({ status: 'success' });
    else res.status(400).json({ status: 'error', errors: result.problems });
  });
  answerOtherMethods(app.router, methodNotAllowed);
  app.use('/-/', auth);
  app.use((_req, res) => {
    res.status(404).json({ status: 'error', error: 'not found' });
  });
  // Every error is answered as JSON, never with Express's HTML page (its stack, file paths).
  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const client = clientError(err);
    if (client === undefined) source.onError?.(err);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    // The failing handler may have set its own type (the status page: HTML) before it threw.
    res.setHeader('content-type', 'application/json; charset=utf-8');
    if (client !== undefined) res.status(client.status).json({ status: 'error', error: client.error });
    else res.status(500).json({ status: 'error', error: 'internal error' });
  });
  return app;
}
