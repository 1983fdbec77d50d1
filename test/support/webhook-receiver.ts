import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { closeServer, listenLoopback } from './loopback';

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
  body: unknown;
}

/** How the receiver answers the next request: a status (and optional delay or Retry-After). */
export interface Reply {
  status: number;
  delayMs?: number;
  retryAfter?: string;
}

/** A real HTTP server on loopback that records what it is sent, for webhook tests. */
export class WebhookReceiver {
  readonly received: Received[] = [];
  /** Requests answered with an error (3xx and above), as received. */
  readonly refused: Received[] = [];
  /** Answers for the next requests, in order; afterwards 200. */
  readonly replies: Reply[] = [];
  private server: Server | undefined;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const reply = this.replies.shift() ?? { status: 200 };
        const answer = (): void => {
          let body: unknown;
          try {
            body = JSON.parse(raw);
          } catch {
            body = undefined;
          }
          (reply.status < 300 ? this.received : this.refused).push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, raw, body });
          if (reply.retryAfter !== undefined) res.setHeader('retry-after', reply.retryAfter);
          res.statusCode = reply.status;
          res.end();
        };
        if (reply.delayMs) setTimeout(answer, reply.delayMs);
        else answer();
      });
    });
    this.url = await listenLoopback(this.server);
    return this;
  }

  async stop(): Promise<void> {
    await closeServer(this.server);
  }
}
