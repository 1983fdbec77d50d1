/** Writing answers: every body has an exact Content-Length and a charset. */
import type { ServerResponse } from 'node:http';

export const JSON_TYPE = 'application/json; charset=utf-8';
export const HTML_TYPE = 'text/html; charset=utf-8';

export type Headers = Record<string, string>;

/** A computed answer before it is sent (faults may send it differently). */
export interface Reply {
  status: number;
  body: Buffer;
  /** The JSON records of an array answer, for faults that corrupt some of them. */
  records?: readonly string[];
  /** A single ticker object (`?symbol=X`) rather than an array. */
  single?: boolean;
}

export function send(res: ServerResponse, status: number, body: string | Buffer, headers: Headers = {}, type = JSON_TYPE): void {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  res.writeHead(status, { ...headers, 'content-type': type, 'content-length': String(bytes.length) });
  res.end(bytes);
}

/** `{"code": N, "msg": "..."}`; `code` is a string where a deployment sends it so. */
export function errorBody(code: number | string, msg: string): string {
  return JSON.stringify({ code, msg });
}

export function errorReply(status: number, code: number, msg: string): Reply {
  return { status, body: Buffer.from(errorBody(code, msg)) };
}
