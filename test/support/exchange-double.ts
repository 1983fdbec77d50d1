import { createServer, type Server } from 'node:http';
import { parseJsonKeepingDecimals } from '../../src/exchange/dialects/spot-v3/decode';
import { closeServer, listenLoopback } from './loopback';

/** An answer of the double: what the exchange would have said, or what a test says instead. */
export interface DoubleAnswer {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

/**
 * Decides one answer. `upstream()` asks the reference exchange behind the double (same path
 * and query); the test may return it as it is, change its body, or answer on its own.
 */
export type Respond = (path: string, upstream: () => Promise<DoubleAnswer>) => DoubleAnswer | Promise<DoubleAnswer>;

/**
 * A real HTTP server on loopback in front of the reference exchange: every GET goes through
 * `respond`, so a test can send answers the reference exchange never would (a record twice,
 * `1e400`, a redirect, another deployment's error code) over a real connection.
 */
export class ExchangeDouble {
  /** Paths (with query) asked for, in order. */
  readonly requests: string[] = [];
  respond: Respond = (_path, upstream) => upstream();
  url = '';
  private server: Server | undefined;

  constructor(private readonly target: string) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const path = req.url ?? '/';
      this.requests.push(path);
      const upstream = async (): Promise<DoubleAnswer> => {
        const r = await fetch(`${this.target}${path}`, { headers: { 'accept-encoding': 'identity' } });
        return { status: r.status, body: await r.text() };
      };
      Promise.resolve()
        .then(() => this.respond(path, upstream))
        .then((answer) => {
          res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
          res.end(answer.body);
        })
        .catch((err: unknown) => {
          res.writeHead(599, { 'content-type': 'text/plain' });
          res.end(`double failed: ${String(err)}`);
        });
    });
    this.url = await listenLoopback(this.server);
    return this;
  }

  async stop(): Promise<void> {
    await closeServer(this.server);
  }
}

/**
 * An answer's JSON body changed by `edit` (which may change it in place or return a new
 * value). Decimals keep their exact text (`1E-8` stays `1E-8`, sent as a string).
 */
export function editJson(answer: DoubleAnswer, edit: (body: unknown) => unknown): DoubleAnswer {
  const body = parseJsonKeepingDecimals(answer.body);
  const edited = edit(body);
  return { ...answer, body: JSON.stringify(edited === undefined ? body : edited) };
}
