import type { IncomingHttpHeaders } from 'node:http';
import { answerError, answerJson } from '../kit/http-errors';
import { ANSWER_LIMIT, postJson, type HttpDeps, type PostAnswer } from '../kit/http-post';
import { NotifyError, type Delivery, type Notifier } from '../notifier';
import { SentParts } from '../kit/sent-parts';
import { EMERGENCY, HIGH, pushoverMessages, type MessageOptions } from './message';
import type { Receipt, ReceiptStore } from './receipts';
import { wallNow } from '../../lib/clock';

export interface PushoverOptions extends MessageOptions {
  name: string;
  /** `https://api.pushover.net`: the API's paths are under it. */
  apiUrl: string;
  timeoutMs: number;
  receipts: ReceiptStore;
}

/**
 * The `pushover` receiver: a group as one message or as many as its alerts need (message.ts),
 * sent in order, and its emergency (priority 2, only ever the first message) cancelled by its
 * receipt once the group's emergency alerts, in whichever message, have resolved.
 * The receipts are kept durably (receipts.ts), so that an emergency sent before a restart is
 * still cancelled after it. An update of a group whose emergency alerts an unexpired receipt
 * already stands for all goes at priority 1 (high): an acknowledged emergency does not ring again
 * because another alert of the group resolved. Pushover answers 200 `{"status":1}`; a 4xx `{"status":0,"errors":[...]}`,
 * or a 200 whose `status` is not 1, is permanent; 429 (the application's monthly limit), 5xx and failed connections are retried,
 * a 429 after the limit's reset (`X-Limit-App-Reset`), the others no sooner than 5 seconds after
 * (as Pushover asks). A retry starts after the messages already accepted.
 */
export function pushoverNotifier(options: PushoverOptions, http: HttpDeps): Notifier {
  const base = options.apiUrl.replace(/\/+$/, '');
  const secrets = [options.token, options.user];
  const sent = new SentParts();
  let receipts: Receipt[] | undefined;
  const kept = (): Receipt[] => (receipts ??= options.receipts.load());
  const save = (next: Receipt[]): void => {
    receipts = next;
    options.receipts.save(next);
  };

  async function post(path: string, body: unknown, signal: AbortSignal | undefined): Promise<PostAnswer & { json: Readonly<Record<string, unknown>> | undefined }> {
    const url = new URL(`${base}${path}`);
    // Pushover's answer says what it did (a receipt, the status 1 of a success): every one is read.
    const answer = await postJson(url, body, {
      http, who: 'Pushover', timeoutMs: options.timeoutMs, signal, redirects: 'none', answer: { of: 'every', limit: ANSWER_LIMIT, over: 'cut', broken: 'throw' },
    }).catch((err: unknown) => {
      // No connection, or no reply: Pushover asks for no retry sooner than 5 seconds after.
      if (err instanceof NotifyError && (err.reason === 'connect' || err.reason === 'timeout')) {
        throw new NotifyError(err.message, err.reason, err.retryable, Math.max(PUSHOVER_RETRY_MS, err.retryAfterMs ?? 0));
      }
      throw err;
    });
    return { ...answer, json: answerJson(answer.body) };
  }

  /** Cancels the emergencies none of whose alerts still fire; a receipt Pushover no longer knows (4xx) is forgotten too. */
  async function cancelResolved(resolved: ReadonlySet<string>, signal: AbortSignal | undefined): Promise<void> {
    const now = http.clock.now();
    const before = kept();
    let left = before.filter((r) => r.expiresAt > now).map((r) => ({ ...r, alerts: r.alerts.filter((f) => !resolved.has(f)) }));
    if (left.length !== before.length || left.some((r, i) => r.alerts.length !== before[i]?.alerts.length)) save(left);
    for (const r of left.filter((x) => x.alerts.length === 0)) {
      const answer = await post(`/1/receipts/${encodeURIComponent(r.receipt)}/cancel.json`, { token: options.token }, signal);
      if (answer.status >= 500 || answer.status === 429) throw pushoverError(answer, wallNow(http.clock), secrets);
      left = left.filter((x) => x !== r);
      save(left);
    }
  }

  /** Whether unexpired receipts stand for every one of `alerts` (a group's firing emergency alerts). */
  function standing(alerts: readonly string[], now: number): boolean {
    const covered = new Set(kept().filter((r) => r.expiresAt > now).flatMap((r) => r.alerts));
    return alerts.length > 0 && alerts.every((f) => covered.has(f));
  }

  return {
    name: options.name,
    async send({ notification, idempotencyKey }: Delivery, signal?: AbortSignal) {
      await cancelResolved(new Set(notification.alerts.filter((a) => a.status === 'resolved').map((a) => a.fingerprint)), signal);
      const messages = pushoverMessages(notification, options);
      /** The monthly limit, reached by the last push: the next part is not sent (the parts before it are accepted). */
      let limit: NotifyError | undefined;
      await sent.sendEach(idempotencyKey, messages, async (message) => {
        if (limit !== undefined) throw limit;
        let { payload, emergencies } = message;
        if (payload.priority === EMERGENCY && standing(emergencies, http.clock.now())) {
          // An emergency already repeats (or was acknowledged) for each of them: a new one would only ring again.
          const { retry: _retry, expire: _expire, ...rest } = payload;
          payload = { ...rest, priority: HIGH };
          emergencies = [];
        }
        const answer = await post('/1/messages.json', payload, signal);
        if (answer.status < 200 || answer.status >= 300 || answer.json?.status !== 1) throw pushoverError(answer, wallNow(http.clock), secrets);
        const receipt = answer.json.receipt;
        if (payload.priority === EMERGENCY && typeof receipt === 'string' && emergencies.length > 0) {
          save([...kept(), { receipt, alerts: emergencies, expiresAt: http.clock.now() + options.expire * 1000 }]);
        }
        if (answer.headers['x-limit-app-remaining'] === '0') {
          limit = new NotifyError('Pushover: the application\'s monthly message limit is reached', 'rate_limited', true, untilReset(answer.headers, wallNow(http.clock)));
        }
      });
    },
  };
}

/**
 * The least wait before another request after a 5xx, a failed connection or no reply: Pushover
 * asks for "no sooner than 5 seconds from your last request".
 */
export const PUSHOVER_RETRY_MS = 5_000;

/**
 * A failed answer as Pushover words it: `{"status":0,"errors":[...],"request"}`; a 429 waits for
 * `X-Limit-App-Reset`, a 5xx at least 5 seconds. A 2xx with Pushover's JSON whose `status` is not
 * 1 is invalid input, as a 4xx ("repeating your same request will not work"): not retried.
 */
export function pushoverError(answer: PostAnswer, now: number, secrets: readonly string[] = []): NotifyError {
  const json = answerJson(answer.body);
  const errors = Array.isArray(json?.errors) ? json.errors.map(String) : [];
  const said = errors.length > 0 ? errors.join('; ') : answer.body;
  const retryAfterMs = answer.status === 429 ? untilReset(answer.headers, now) : answer.status >= 500 ? PUSHOVER_RETRY_MS : undefined;
  if (answer.status >= 200 && answer.status < 300) {
    // What it said, as a 4xx's words are quoted (redacted, on one line, cut): `: user key is invalid`, or nothing.
    const words = answerError('Pushover', { ...answer, status: 400 }, now, { said, secrets }).message.slice('Pushover answered HTTP 400'.length);
    if (typeof json?.status === 'number') return new NotifyError(`Pushover answered HTTP ${answer.status} with status ${json.status}${words}`, 'client_error', false);
    // A success status whose body is not Pushover's JSON (a captive portal, a proxy): nothing says it was delivered.
    return new NotifyError(`Pushover answered HTTP ${answer.status} without status 1${words}`, 'other', true);
  }
  return answerError('Pushover', answer, now, { said, retryAfterMs, secrets });
}

/** Milliseconds until `X-Limit-App-Reset` (a Unix time in seconds), when it says. */
function untilReset(headers: IncomingHttpHeaders, now: number): number | undefined {
  const reset = Number(headers['x-limit-app-reset']);
  return Number.isFinite(reset) && reset > 0 ? Math.max(0, reset * 1000 - now) : undefined;
}
