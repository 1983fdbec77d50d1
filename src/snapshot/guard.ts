/**
 * The guard against a broken upstream: an empty list is never taken as real, and a list
 * that shrinks by more than `maxShrink` at once is held as suspect until it has persisted
 * for `confirmPolls` polls and `confirmMs`. Pure: the caller keeps the Suspect between polls.
 */
import { DEFAULT_GUARD as GUARD_DEFAULTS } from '../lib/guard-defaults';
import { networkCount, type Endpoint, type Snapshot } from './model';

export interface GuardOptions {
  maxShrink: number;
  confirmPolls: number;
  confirmMs: number;
}

/** The defaults, for an exchange the config says nothing about. */
export const DEFAULT_GUARD: GuardOptions = GUARD_DEFAULTS;

export interface Suspect {
  since: number;
  polls: number;
  /** Sizes before and after, as "coins/networks" or "tickers". */
  before: string;
  after: string;
}

export type Verdict =
  | { verdict: 'accept'; confirmed?: Suspect }
  | { verdict: 'empty' }
  | { verdict: 'hold'; suspect: Suspect };

function sizes(s: Snapshot, endpoint: Endpoint): number[] {
  if (endpoint === 'tickers') return [s.tickers.size];
  return [s.coins.size, networkCount(s.coins)];
}

/** Judges `next` against the last accepted snapshot for the list of one endpoint (coins or tickers). */
export function judge(accepted: Snapshot, next: Snapshot, endpoint: Endpoint, suspect: Suspect | undefined, now: number, options: GuardOptions): Verdict {
  const after = sizes(next, endpoint);
  if ((after[0] ?? 0) === 0) return { verdict: 'empty' };
  const baseline = endpoint === 'coins' ? accepted.coinsAt === null : accepted.tickersAt === null;
  if (baseline) return { verdict: 'accept' };
  const before = sizes(accepted, endpoint);
  const shrunk = before.some((b, i) => b > 0 && 1 - (after[i] ?? 0) / b > options.maxShrink);
  if (!shrunk) return { verdict: 'accept' };
  const held: Suspect = suspect
    ? { ...suspect, polls: suspect.polls + 1, after: after.join('/') }
    : { since: now, polls: 1, before: before.join('/'), after: after.join('/') };
  if (held.polls >= options.confirmPolls && now - held.since >= options.confirmMs) return { verdict: 'accept', confirmed: held };
  return { verdict: 'hold', suspect: held };
}
