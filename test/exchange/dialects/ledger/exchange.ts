import { createServer, type Server } from 'node:http';
import { closeServer, listenLoopback } from '../../../support/loopback';
import { ledgerSignature } from './sign';
import { LEDGER_PATHS, type LedgerCredentials } from './wire';

/**
 * The exchange `ledger` speaks, on loopback: its clock runs `aheadMs` ahead of ours; it checks
 * the key, the timestamp (within 5 s of its clock) and the signature of every assets request.
 * `answer` may replace an answer (a rate limit, an outage).
 */
export class LedgerExchange {
  /** Paths asked for, in order. */
  readonly requests: string[] = [];
  assets: unknown[] = [];
  tickers: string[] = [];
  answer: ((path: string) => { status: number; body: string; headers?: Record<string, string> } | undefined) | undefined;
  url = '';
  private server: Server | undefined;

  constructor(
    private readonly credentials: LedgerCredentials,
    private readonly aheadMs: number,
  ) {}

  now(): number {
    return Date.now() + this.aheadMs;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const path = req.url ?? '/';
      this.requests.push(path);
      const reply = (status: number, body: string, headers: Record<string, string> = {}): void => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(body);
      };
      const forced = this.answer?.(path);
      if (forced !== undefined) return reply(forced.status, forced.body, forced.headers);
      const refuse = (status: number, code: string, text: string): void => reply(status, JSON.stringify({ ok: false, error: { code, text } }));
      if (path === LEDGER_PATHS.time) return reply(200, `{"ok":true,"time":${this.now()}}`);
      if (path === LEDGER_PATHS.tickers) return reply(200, `{"ok":true,"time":1700000000000,"data":[${this.tickers.join(',')}]}`);
      if (path !== LEDGER_PATHS.assets) return refuse(404, 'E_PATH', 'no such path');
      const ts = String(req.headers['x-ledger-ts'] ?? '');
      if (req.headers['x-ledger-key'] !== this.credentials.api_key) return refuse(401, 'E_KEY', 'unknown key');
      // A timestamp outside the window is refused inside an answer of status 200.
      if (!(Math.abs(Number(ts) - this.now()) <= 5_000)) return refuse(200, 'E_TS', 'timestamp outside the window');
      if (req.headers['x-ledger-sign'] !== ledgerSignature(this.credentials.api_secret, ts, path)) return refuse(401, 'E_SIGN', 'bad signature');
      return reply(200, `{"ok":true,"data":${JSON.stringify(this.assets)}}`.replace(/"fee":"([^"]*)"/g, '"fee":$1'));
    });
    this.url = await listenLoopback(this.server);
    return this;
  }

  async stop(): Promise<void> {
    await closeServer(this.server);
  }
}
