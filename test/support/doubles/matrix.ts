/**
 * A Matrix homeserver's send endpoint, as the Client-Server API spec describes it
 * (spec.matrix.org/latest/client-server-api: "PUT /_matrix/client/v3/rooms/{roomId}/send/{eventType}/{txnId}",
 * "Transaction identifiers", "Standard error response", "Rate limiting", "Size limits", and the
 * "User and room mentions" module for `m.mentions`). Written from the spec, not from spotwatch's code.
 *
 * - The access token in `Authorization: Bearer <token>`: none is 401 `M_MISSING_TOKEN`, another
 *   401 `M_UNKNOWN_TOKEN`. A room the account is not in is 403 `M_FORBIDDEN`.
 * - The body is a JSON object (400 `M_NOT_JSON`); the event, envelope included, at most 65,536
 *   bytes (413 `M_TOO_LARGE`; the envelope is taken as ENVELOPE bytes here).
 * - 200 `{"event_id"}`. A txnId seen before (for the same token) answers the first event's id
 *   and stores nothing.
 * - A 429 is `{"errcode": "M_LIMIT_EXCEEDED", "error", "retry_after_ms"}`, with `Retry-After` (seconds).
 * - Room ids as the spec's "Room Version 12" (MSC4291) has them too: `!` and the create event's
 *   reference hash, with no server part. The account is joined to ROOMS (one of each form).
 * - `pushed`: whether the default push rules notify a member's phone of the event: the override
 *   rule `.m.rule.suppress_notices` (`content.msgtype` is `m.notice`) does nothing; the underride
 *   rule `.m.rule.message` (any other `m.room.message`) notifies.
 * - `pings`: what an event would notify. With `m.mentions` present only it counts (`room: true`
 *   is `@room`, `user_ids` the users); without it, the legacy push rules match `@room` and user ids
 *   in `body`.
 */
import { ServiceDouble, type ServiceReply, type ServiceRequest } from './service';

export const MATRIX_TOKEN = 'syt_c3BvdHdhdGNo_aXTJtdzRsRbvQkmAoYcZ_1x2y3z';
export const MATRIX_ROOM = '!abcDEF123:example.org';
/** A room of version 12: its id is `!` and 43 characters of URL-safe unpadded base64, no server. */
export const MATRIX_ROOM_V12 = '!31hneApxJ_1o-63DmFrpeqnkFfWppnzWso1JvH3ogLM';
/** The rooms the account has joined. */
const ROOMS = new Set([MATRIX_ROOM, MATRIX_ROOM_V12]);
/** What a homeserver adds around the content (event id, sender, room id, timestamps, hashes, signatures): a generous guess. */
const ENVELOPE = 1_500;
const LIMIT = 65_536;

export interface MatrixEvent {
  roomId: string;
  txnId: string;
  eventId: string;
  content: Record<string, unknown>;
  /** Bytes of the event's JSON with the envelope. */
  bytes: number;
  pings: string[];
  /** Whether the default push rules push it to phones. */
  pushed: boolean;
}

export class MatrixDouble extends ServiceDouble {
  readonly events: MatrixEvent[] = [];
  /** The next sends are stored but their answer is lost (a proxy's 504): the client cannot know. */
  loseAnswers = 0;
  private readonly txns = new Map<string, string>();

  get homeserver(): string {
    return this.url;
  }

  /** The next request is rate limited: `retry_after_ms` in the body, `Retry-After` rounded up. */
  rateLimit(retryAfterMs: number, header = Math.ceil(retryAfterMs / 1000)): void {
    this.forced.push({ status: 429, headers: { 'retry-after': String(header) }, body: { errcode: 'M_LIMIT_EXCEEDED', error: 'Too Many Requests', retry_after_ms: retryAfterMs } });
  }

  protected answer(req: ServiceRequest): ServiceReply {
    const m = /^\/_matrix\/client\/v3\/rooms\/([^/?]+)\/send\/([^/?]+)\/([^/?]+)$/.exec(req.path);
    if (m === null) return error(404, 'M_UNRECOGNIZED', 'Unrecognized request');
    if (req.method !== 'PUT') return error(405, 'M_UNRECOGNIZED', 'Unrecognized request');
    const auth = req.headers.authorization;
    if (auth === undefined) return error(401, 'M_MISSING_TOKEN', 'Missing access token');
    if (auth !== `Bearer ${MATRIX_TOKEN}`) return error(401, 'M_UNKNOWN_TOKEN', 'Invalid access token passed.');
    const roomId = decodeURIComponent(m[1] ?? '');
    const txnId = decodeURIComponent(m[3] ?? '');
    if (!ROOMS.has(roomId)) return error(403, 'M_FORBIDDEN', `User @bot:example.org not in room ${roomId}`);
    if (typeof req.json !== 'object' || req.json === null || Array.isArray(req.json)) return error(400, 'M_NOT_JSON', 'Content not JSON.');
    const bytes = Buffer.byteLength(req.raw, 'utf8') + ENVELOPE;
    if (bytes > LIMIT) return error(413, 'M_TOO_LARGE', 'event too large');
    const seen = this.txns.get(txnId);
    let eventId = seen;
    if (eventId === undefined) {
      eventId = `$event${this.events.length + 1}`;
      this.txns.set(txnId, eventId);
      const content = req.json as Record<string, unknown>;
      this.events.push({ roomId, txnId, eventId, content, bytes, pings: pings(content), pushed: content.msgtype !== 'm.notice' });
    }
    if (this.loseAnswers > 0) {
      this.loseAnswers -= 1;
      return { status: 504, body: 'Gateway Timeout' };
    }
    return { status: 200, body: { event_id: eventId } };
  }
}

function error(status: number, errcode: string, message: string): ServiceReply {
  return { status, body: { errcode, error: message } };
}

function pings(content: Record<string, unknown>): string[] {
  const mentions = content['m.mentions'] as { room?: unknown; user_ids?: unknown } | undefined;
  if (mentions !== undefined) {
    return [...(mentions.room === true ? ['@room'] : []), ...(Array.isArray(mentions.user_ids) ? (mentions.user_ids as string[]) : [])];
  }
  const body = typeof content.body === 'string' ? content.body : '';
  return body.match(/@room\b|@[a-z0-9._=/-]+:[a-z0-9.-]+/gi) ?? [];
}
