import { answerError, answerJson } from '../kit/http-errors';
import { postJson, succeeded, type HttpDeps, type PostAnswer } from '../kit/http-post';
import type { Delivery, Notifier, NotifyError } from '../notifier';
import { SentParts } from '../kit/sent-parts';
import { matrixMessages } from './message';
import type { MatrixConfig } from './schema';
import { wallNow } from '../../lib/clock';

/**
 * The `matrix` receiver: each group as `m.room.message` events (`m.text`, or `m.notice` with
 * `msgtype: notice`) sent to one room with the
 * account's access token (`PUT /_matrix/client/v3/rooms/{roomId}/send/m.room.message/{txnId}`).
 * The transaction id is the delivery's idempotency key (`<key>-<part>` for a group split in
 * several events), the same on every retry, so a homeserver that saved an event whose answer was
 * lost (a timeout, a 5xx from a proxy) answers the retry with the same event instead of posting it
 * twice. A 429 (`M_LIMIT_EXCEEDED`) waits `retry_after_ms` or `Retry-After`, whichever is longer;
 * other 4xx (`M_FORBIDDEN`, `M_UNKNOWN_TOKEN`...) are not retried; 5xx are.
 */
export function matrixNotifier(name: string, config: MatrixConfig, http: HttpDeps): Notifier {
  /** Events of split groups already accepted: a retry sends only the rest (their txnIds would make a re-send harmless anyway). */
  const sent = new SentParts();
  const secrets = [config.access_token];
  const msgtype = config.msgtype === 'notice' ? 'm.notice' : 'm.text';
  return {
    name,
    async send({ notification, idempotencyKey }: Delivery, signal?: AbortSignal) {
      const events = matrixMessages(notification, msgtype);
      await sent.sendEach(idempotencyKey, events, async (event, i) => {
        const txnId = events.length === 1 ? idempotencyKey : `${idempotencyKey}-${i + 1}`;
        const answer = await postJson(sendUrl(config.homeserver, config.room_id, txnId), event, {
          http, who: 'Matrix', method: 'PUT', timeoutMs: config.timeout, signal, headers: { authorization: `Bearer ${config.access_token}` }, privateHeaders: ['authorization'],
        });
        if (!succeeded(answer)) throw matrixError(answer, wallNow(http.clock), secrets);
      });
    },
  };
}

/** The send endpoint under the homeserver's base (a path prefix kept), room and txnId encoded. */
export function sendUrl(homeserver: string, roomId: string, txnId: string): URL {
  const base = new URL(homeserver);
  const prefix = base.pathname.replace(/\/+$/, '');
  base.pathname = `${prefix}/_matrix/client/v3/rooms/${encodeURIComponent(roomId)}/send/m.room.message/${encodeURIComponent(txnId)}`;
  base.search = '';
  return base;
}

/** A failed answer as Matrix words it (`{"errcode", "error"}`), and a 429's `retry_after_ms`. */
export function matrixError(answer: PostAnswer, now: number, secrets: readonly string[] = []): NotifyError {
  const json = answerJson(answer.body);
  const wait = json?.retry_after_ms;
  const retryAfterMs = answer.status === 429 && typeof wait === 'number' && Number.isFinite(wait) && wait >= 0 ? Math.ceil(wait) : undefined;
  const said = json === undefined ? answer.body : [json.errcode, json.error].filter((s) => typeof s === 'string' && s !== '').join(': ') || JSON.stringify(json);
  return answerError('Matrix', answer, now, { said, retryAfterMs, secrets });
}
