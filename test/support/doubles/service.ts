import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import { closeServer, listenLoopback } from '../loopback';

/** One request a double received, as it arrived. */
export interface ServiceRequest {
  method: string;
  /** Path and query. */
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
  /** When it arrived (Date.now()). */
  at: number;
}

/** An answer: status, headers, and a body (an object is sent as JSON). */
export interface ServiceReply {
  status: number;
  headers?: Record<string, string>;
  body?: string | object;
}

/**
 * A real HTTP server on 127.0.0.1, port 0, that answers as a public service documents it: the
 * base of the Discord, Slack and PagerDuty doubles. Each records every request and answers with
 * `answer` (the documented behaviour); `forced` answers come first, one per request, for what a
 * test provokes (a rate limit, an outage).
 */
export abstract class ServiceDouble {
  readonly requests: ServiceRequest[] = [];
  readonly forced: ServiceReply[] = [];
  /** Every reply sent, in order, beside `requests`. */
  readonly replies: ServiceReply[] = [];
  url = '';
  private server: Server | undefined;

  /** The documented answer to a request (and whatever the service remembers of it). */
  protected abstract answer(req: ServiceRequest): ServiceReply;

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      void bodyOf(req).then((raw) => {
        const request: ServiceRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, raw, json: jsonOf(raw), at: Date.now() };
        this.requests.push(request);
        const reply = this.forced.shift() ?? this.answer(request);
        this.replies.push(reply);
        const isJson = typeof reply.body === 'object';
        res.writeHead(reply.status, { 'content-type': isJson ? 'application/json' : 'text/plain; charset=utf-8', ...reply.headers });
        res.end(reply.body === undefined ? undefined : isJson ? JSON.stringify(reply.body) : reply.body);
      });
    });
    this.url = await listenLoopback(this.server);
    return this;
  }

  async stop(): Promise<void> {
    await closeServer(this.server);
  }
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function jsonOf(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

/** Characters as the services count them: Unicode code points. */
export function chars(text: string): number {
  return [...text].length;
}
