/**
 * Flap detection, as Nagios has long done it: the percent state change of a network or a symbol
 * over its last `window` polls, the newer changes weighing more (0.8 for the oldest slot up to
 * 1.2 for the newest), with hysteresis: a thing starts flapping when the percent reaches `high`
 * and stops when it falls under `low`. Two cache nodes answering open and closed in turn make a
 * network flap; a network that closes once, or an exchange-wide storm, does not (one change in
 * 20 slots is about 6 %).
 *
 * A thing is a network (`coin`, `network`: its deposit or withdraw flag flipped, or it came or
 * went) or a symbol (listed or delisted). Pure: the book of one exchange's endpoint in, the next
 * out; only things that changed within the window are kept.
 */
import { DEFAULT_FLAPPING as FLAPPING_DEFAULTS } from '../lib/guard-defaults';
import type { Change, ChangeKind } from '../snapshot/changes';

export interface FlapOptions {
  readonly enabled: boolean;
  /** Polls looked back over (Nagios: 21 states, so 20 slots for a change). */
  readonly window: number;
  /** Percent state change at which a thing starts flapping... */
  readonly highPercent: number;
  /** ...and under which it stops. */
  readonly lowPercent: number;
}

export const DEFAULT_FLAPPING: FlapOptions = FLAPPING_DEFAULTS;

/** One thing's recent changes. */
export interface Flap {
  /** Where it is: `coin` and `network`, or `symbol`. */
  readonly where: Readonly<Record<string, string>>;
  /** The polls (their numbers in the book) at which it changed, oldest first, within the window. */
  readonly changedAt: readonly number[];
  /** Whether it is flapping now. */
  readonly flapping: boolean;
}

/** One exchange endpoint's things that changed within the window. */
export interface FlapBook {
  /** Polls taken so far (the number of the last one). */
  readonly poll: number;
  readonly things: ReadonlyMap<string, Flap>;
}

export const EMPTY_BOOK: FlapBook = { poll: 0, things: new Map() };

const FLIPS: ReadonlySet<ChangeKind> = new Set<ChangeKind>([
  'deposit_disabled', 'deposit_enabled', 'withdraw_disabled', 'withdraw_enabled', 'network_added', 'network_removed',
  'symbol_listed', 'symbol_delisted',
]);

/** The thing a change flips (undefined: a change that is no flip, such as a fee). */
export function thingOf(change: Change): { key: string; where: Record<string, string> } | undefined {
  if (!FLIPS.has(change.kind)) return undefined;
  if (change.symbol !== undefined) return { key: `s\u0000${change.symbol}`, where: { symbol: change.symbol } };
  if (change.coin !== undefined && change.network !== undefined) return { key: `n\u0000${change.coin}\u0000${change.network}`, where: { coin: change.coin, network: change.network } };
  return undefined;
}

/** The key of the thing an alert's labels name (a network or a symbol), if any. */
export function thingOfLabels(labels: Readonly<Record<string, string>>): string | undefined {
  if (labels.symbol !== undefined) return `s\u0000${labels.symbol}`;
  if (labels.coin !== undefined && labels.network !== undefined) return `n\u0000${labels.coin}\u0000${labels.network}`;
  return undefined;
}

/** Nagios' weighted percent state change: slot 1 (oldest) weighs 0.8, slot `window - 1` (newest) 1.2. */
export function percentChange(changedAt: readonly number[], poll: number, window: number): number {
  const slots = window - 1;
  let sum = 0;
  for (const at of changedAt) {
    const slot = at - (poll - slots);
    if (slot < 1 || slot > slots) continue;
    sum += slots === 1 ? 1 : 0.8 + ((slot - 1) * 0.4) / (slots - 1);
  }
  return (sum / slots) * 100;
}

/**
 * The book after one more poll whose changes are `changes`: each thing's changes in the window,
 * and whether it flaps. The same book object when there is nothing to track.
 */
export function recordFlips(book: FlapBook, changes: readonly Change[], options: FlapOptions): FlapBook {
  if (!options.enabled) return book.things.size === 0 ? book : EMPTY_BOOK;
  const poll = book.poll + 1;
  const flipped = new Map<string, Record<string, string>>();
  for (const c of changes) {
    const thing = thingOf(c);
    if (thing !== undefined) flipped.set(thing.key, thing.where);
  }
  if (flipped.size === 0 && book.things.size === 0) return { poll, things: book.things };
  const oldest = poll - (options.window - 1) + 1;
  const things = new Map<string, Flap>();
  const keys = new Set([...book.things.keys(), ...flipped.keys()]);
  for (const key of keys) {
    const before = book.things.get(key);
    const kept = (before?.changedAt ?? []).filter((at) => at >= oldest);
    const changedAt = flipped.has(key) ? [...kept, poll] : kept;
    const percent = percentChange(changedAt, poll, options.window);
    const was = before?.flapping ?? false;
    const flapping = was ? percent >= options.lowPercent : percent >= options.highPercent;
    if (changedAt.length === 0 && !flapping) continue;
    things.set(key, { where: before?.where ?? flipped.get(key) ?? {}, changedAt, flapping });
  }
  return { poll, things };
}

/** Whether anything in the book flaps. */
export function anyFlapping(book: FlapBook): boolean {
  for (const f of book.things.values()) if (f.flapping) return true;
  return false;
}
