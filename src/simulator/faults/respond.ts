/** How each fault answers a request in place of (or around) the normal reply. */
import { STATUS_CODES, type ServerResponse } from 'node:http';
import { ERROR_CODES, type Endpoint } from '../../exchange/dialects/spot-v3/wire';
import type { FaultSpec } from '../actions/faults-schema';
import type { Live } from '../http/live';
import { errorBody, HTML_TYPE, JSON_TYPE, send, type Headers, type Reply } from '../http/reply';
import { streamHuge } from './huge';
import { malformedBody } from './malformed';

/** Code of an upstream's internal error (what real deployments send with 5xx). */
const INTERNAL_ERROR_CODE = -1001;

export interface FaultContext {
  res: ServerResponse;
  endpoint: Endpoint;
  /** Headers every answer carries (the used weight). */
  headers: Headers;
  /** The normal answer, computed only for faults that need it. */
  reply(): Reply;
  /** Send the normal answer (after a delay). */
  proceed(): void;
  live: Live;
}

function htmlPage(status: number): string {
  const title = `${status} ${STATUS_CODES[status] ?? 'Error'}`;
  return `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
}

/** A body cut short where it stands: whatever prefix of valid JSON plus a dangling `,]}` never parses. */
function invalidJson(body: Buffer): Buffer {
  return Buffer.concat([body.subarray(0, Math.min(body.length, 120)), Buffer.from(',]}')]);
}

export function respondWithFault(fault: FaultSpec, ctx: FaultContext): void {
  const { res, headers } = ctx;
  switch (fault.kind) {
    case 'http_500':
      return send(res, fault.status, errorBody(INTERNAL_ERROR_CODE, `${STATUS_CODES[fault.status] ?? 'Error'}.`), headers);
    case 'delay':
      return ctx.live.later(fault.ms, ctx.proceed);
    case 'hang': {
      const reply = ctx.reply();
      res.writeHead(reply.status, { ...headers, 'content-type': JSON_TYPE, 'content-length': String(reply.body.length) });
      res.write(reply.body.subarray(0, Math.min(fault.bytes, reply.body.length)));
      return ctx.live.hold(res);
    }
    case 'truncate': {
      const reply = ctx.reply();
      const cut = Math.min(fault.bytes ?? Math.floor(reply.body.length / 2), Math.max(0, reply.body.length - 1));
      res.writeHead(reply.status, { ...headers, 'content-type': JSON_TYPE, 'content-length': String(reply.body.length) });
      ctx.live.hold(res);
      res.write(reply.body.subarray(0, cut), () => res.destroy());
      return;
    }
    case 'invalid_json':
      return send(res, 200, invalidJson(ctx.reply().body), headers);
    case 'wrong_shape':
      return send(res, 200, '{"code":"200","msg":"success","data":null}', headers);
    case 'html':
      return send(res, fault.status, htmlPage(fault.status), headers, HTML_TYPE);
    case 'rate_limit':
    case 'ban': {
      const code = fault.code_as_string ? String(ERROR_CODES.tooMuchWeight) : ERROR_CODES.tooMuchWeight;
      const msg = fault.kind === 'ban'
        ? 'Way too much request weight used; IP banned. Please use the websocket for live updates to avoid bans.'
        : 'Too much request weight used; please use the websocket for live updates to avoid polling the API.';
      return send(res, fault.kind === 'ban' ? 418 : 429, errorBody(code, msg), { ...headers, 'retry-after': String(fault.retry_after) });
    }
    case 'empty':
      return send(res, 200, '[]', headers);
    case 'malformed': {
      const reply = ctx.reply();
      return send(res, reply.status, malformedBody(ctx.endpoint, reply, fault.records), headers);
    }
    case 'huge': {
      res.writeHead(200, { ...headers, 'content-type': JSON_TYPE });
      ctx.live.hold(res);
      void streamHuge(res, fault.bytes);
      return;
    }
  }
}
