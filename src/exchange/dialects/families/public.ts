/**
 * What the public dialects (bitget, kucoin, gate, htx: no key, both requests public) share in
 * reading answers (dialects.md section 2): a coin's networks in its list `chains`, and answers
 * and errors in an envelope (`{"code": "200000", "data": ...}`, `{"status": "ok", "data": ...}`,
 * `{"label", "message"}`) whose success, error keys and rate-limit codes each dialect names.
 * Each dialect's folder says the rest.
 */
import { Refused, type Refusal } from '../../dialect';
import { keyIn, listIn, type CoinSource } from './mapped-decode';
import { isObject, shapeOf, ShapeError } from '../../read';
import { readRefusalWith, refusalOf } from '../../refusal';

/** A coin whose networks are its list `chains`, each keyed by `chainKey`; its symbol upper-cased. */
export function chainsOf(coinKey: string, chainKey: string): Pick<CoinSource, 'coin' | 'networks' | 'networkKey'> {
  return {
    coin: (o) => keyIn(o, coinKey, (t) => t.toUpperCase()),
    networks: (o) => listIn(o, 'chains'),
    networkKey: (n) => keyIn(n, chainKey),
  };
}

/** An exchange's answer envelope: where its code is, which codes are success, where an error's code and message are. */
export interface Envelope {
  /** The key of the envelope's status or code (`code`, `status`). */
  readonly statusKey: string;
  /** Whether that value says success (`"00000"`, `200`, `"ok"`). */
  readonly success: (value: unknown) => boolean;
  /** Where an error's code and message are, in order of preference. */
  readonly codeKeys: readonly string[];
  readonly msgKeys: readonly string[];
  /** Codes the exchange answers "too many requests" with: a pause, whatever the HTTP status. */
  readonly tooMany: readonly string[];
  /** The shape of a good answer, for the message of a ShapeError. */
  readonly shape: string;
}

/** What an error body in this envelope says. */
export function envelopeRefusal(envelope: Envelope, body: unknown): Refusal {
  const out = refusalOf(body, envelope.codeKeys, envelope.msgKeys);
  if (out.code !== undefined && envelope.tooMany.includes(out.code)) out.pause = 'rate_limited';
  return out;
}

/**
 * The `data` of an answer in this envelope. A status that is not success is the exchange
 * refusing, whatever the HTTP status (Refused); an answer without `data` is of the wrong
 * shape (ShapeError).
 */
export function envelopeData(envelope: Envelope, body: unknown, what: string): unknown {
  if (isObject(body) && body[envelope.statusKey] !== undefined && !envelope.success(body[envelope.statusKey])) {
    throw new Refused(envelopeRefusal(envelope, body));
  }
  if (isObject(body) && body.data !== undefined && body.data !== null) return body.data;
  throw new ShapeError(`${what}: expected ${envelope.shape}, got ${shapeOf(body)}`);
}

/** envelopeData, which must be a list. */
export function envelopeList(envelope: Envelope, body: unknown, what: string): unknown[] {
  const data = envelopeData(envelope, body, what);
  if (Array.isArray(data)) return data;
  throw new ShapeError(`${what}: expected a list in data, got ${shapeOf(data)}`);
}

/** errors.read of a dialect whose error bodies are in this envelope. */
export function readEnvelopeRefusal(envelope: Envelope): (status: number, text: string) => Refusal {
  return (status, text) => readRefusalWith(status, text, (body) => envelopeRefusal(envelope, body));
}
