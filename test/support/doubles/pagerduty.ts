/**
 * PagerDuty's Events API v2, as its public docs describe it (developer.pagerduty.com "Events API
 * v2", and the OpenAPI description PagerDuty publishes, github.com/PagerDuty/api-schema
 * reference/events-v2/openapiv3.json). Written from the docs, not from spotwatch's code.
 *
 * - `POST /v2/enqueue`, a JSON event: `routing_key` (32 characters), `event_action` (`trigger`,
 *   `acknowledge`, `resolve`), `dedup_key` (at most 255; required unless triggering), and for a
 *   trigger a `payload` with `summary` (at most 1,024), `source` and `severity` (`critical`,
 *   `error`, `warning`, `info`). At most 512 KB.
 * - 202 `{"status": "success", "message": "Event processed", "dedup_key"}`; 400
 *   `{"status": "invalid event", "message": "Event object is invalid", "errors": [...]}`; a body
 *   that is not JSON, 400 `Unrecognized object`. 429 "Too many API calls at a time" (`throttle`)
 *   and 5xx are to be retried.
 * - `incidents`: what the events did, by dedup key: opened by a trigger (more triggers add to
 *   it), closed by a resolve.
 */
import { chars, ServiceDouble, type ServiceReply, type ServiceRequest } from './service';

export const PAGERDUTY_ROUTING_KEY = 'e93facc04764012d7bfb002500d5d1a6';

export interface PagerDutyEventBody {
  routing_key?: string;
  event_action?: string;
  dedup_key?: string;
  payload?: { summary?: string; source?: string; severity?: string; timestamp?: string; custom_details?: unknown; component?: string; class?: string };
  client?: string;
  client_url?: string;
  links?: { href?: string; text?: string }[];
}

export interface Incident {
  status: 'triggered' | 'resolved';
  /** Every accepted event for the key, in order. */
  events: PagerDutyEventBody[];
}

const SEVERITIES = ['critical', 'error', 'warning', 'info'];
const MAX_BYTES = 512 * 1024;

export class PagerDutyDouble extends ServiceDouble {
  readonly incidents = new Map<string, Incident>();
  /** Accepted events, in order. */
  readonly events: PagerDutyEventBody[] = [];

  get enqueueUrl(): string {
    return `${this.url}/v2/enqueue`;
  }

  throttle(): void {
    this.forced.push({ status: 429, body: { status: 'throttled', message: 'Too many API calls at a time.' } });
  }

  protected answer(req: ServiceRequest): ServiceReply {
    if (req.method !== 'POST' || req.path !== '/v2/enqueue') return { status: 404, body: { status: 'Not Found', message: 'Not Found' } };
    if (typeof req.json !== 'object' || req.json === null || Array.isArray(req.json)) {
      return { status: 400, body: { status: 'Unrecognized object', message: 'Event object format is unrecognized', errors: ['JSON parse error'] } };
    }
    const event = req.json as PagerDutyEventBody;
    const errors = problems(event, Buffer.byteLength(req.raw));
    if (errors.length > 0) return { status: 400, body: { status: 'invalid event', message: 'Event object is invalid', errors } };
    const key = event.dedup_key ?? `generated-${this.events.length + 1}`;
    this.events.push(event);
    const incident = this.incidents.get(key) ?? { status: 'triggered', events: [] };
    incident.events.push(event);
    if (event.event_action === 'trigger') incident.status = 'triggered';
    if (event.event_action === 'resolve') incident.status = 'resolved';
    this.incidents.set(key, incident);
    return { status: 202, body: { status: 'success', message: 'Event processed', dedup_key: key } };
  }
}

function problems(e: PagerDutyEventBody, bytes: number): string[] {
  const out: string[] = [];
  if (bytes > MAX_BYTES) out.push('Event object is too large (512 KB at most)');
  if (typeof e.routing_key !== 'string' || e.routing_key === '') out.push("'routing_key' is missing");
  else if (e.routing_key.length !== 32) out.push("Length of 'routing_key' is incorrect (should be 32 characters)");
  if (!['trigger', 'acknowledge', 'resolve'].includes(e.event_action ?? '')) out.push("'event_action' is invalid (must be one of: trigger, acknowledge, resolve)");
  if (e.dedup_key !== undefined && chars(e.dedup_key) > 255) out.push("'dedup_key' is too long (255 characters at most)");
  if (e.event_action !== 'trigger' && e.dedup_key === undefined) out.push("'dedup_key' is missing (required unless triggering)");
  if (e.event_action === 'trigger') {
    const p = e.payload;
    if (p === undefined) out.push("'payload' is missing");
    else {
      if (typeof p.summary !== 'string' || p.summary === '') out.push("'payload.summary' is missing");
      else if (chars(p.summary) > 1024) out.push("'payload.summary' is too long (1024 characters at most)");
      if (typeof p.source !== 'string' || p.source === '') out.push("'payload.source' is missing");
      if (!SEVERITIES.includes(p.severity ?? '')) out.push("'payload.severity' is invalid (must be one of: critical, error, warning, info)");
      if (p.timestamp !== undefined && Number.isNaN(Date.parse(p.timestamp))) out.push("'payload.timestamp' is not a valid ISO 8601 time");
    }
  }
  return out;
}
