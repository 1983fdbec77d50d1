/**
 * Alerts into size-bounded parts, the one way every receiver does it: a group too large for one
 * message is packed, in order, into as many parts as its alerts need (packParts, or fitFrom for a
 * receiver whose last part keeps room of its own), each numbered with the receiver's part label
 * (PART_LABELS); or, for a receiver that sends one body, bounded (keepAlerts, below).
 *
 * A notification bounded in bytes, as Alertmanager's `max_alerts` bounds it in alerts: whole
 * alerts are dropped from the end, and those dropped are counted in `truncatedAlerts`, so a
 * receiver says how many it left out (the webhook body's field, "… and N more" in text). Upstream
 * text is already cut where it enters (lib/upstream-text.ts): this bounds a storm's thousands of
 * alerts, for receivers (an nginx in front of a webhook refuses 1 MB by default) that would
 * otherwise refuse the whole message and tell no one.
 */
import type { Notification } from '../notifier';

/** The notification with its first `keep` alerts; the rest counted in truncatedAlerts. */
export function keepAlerts(n: Notification, keep: number): Notification {
  if (keep >= n.alerts.length) return n;
  return { ...n, alerts: n.alerts.slice(0, keep), truncatedAlerts: n.truncatedAlerts + n.alerts.length - keep };
}

/**
 * How many parts, from the first, fit in `budget` bytes, when part i costs `sizes[i]` (its
 * separator included): the parts of a message that grows by one alert at a time.
 */
export function partsWithin(sizes: readonly number[], budget: number): number {
  let used = 0;
  for (let k = 0; k < sizes.length; k++) {
    used += sizes[k] ?? 0;
    if (used > budget) return k;
  }
  return sizes.length;
}

/**
 * The most alerts, from the first, for which `fits(k)` holds (0 when none does), for a message
 * that cannot be measured alert by alert (a template of the user's): a binary search, so a
 * storm's 8,000 alerts cost about 13 renderings. `fits` must hold for fewer alerts when it
 * holds for more.
 */
export function mostThatFit(count: number, fits: (k: number) => boolean): number {
  let lo = 0;
  let hi = count;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * How a part (one message, one post) is measured: each item's size, what goes between two items
 * and around them all; a part is within when `frame` + its items' sizes + a `separator` between
 * each two is at most `budget`. A receiver bounded two ways at once (ntfy: the body's bytes, and
 * the JSON's) gives two measures.
 */
export interface PartMeasure {
  sizes: readonly number[];
  budget: number;
  separator?: number;
  frame?: number;
}

/**
 * How many items, from `from`, go in one part within every measure: as many as fit, and at least
 * one (an item too large for any part goes alone; none when `from` is past the end).
 */
export function fitFrom(measures: readonly PartMeasure[], from: number): number {
  const count = measures[0]?.sizes.length ?? 0;
  if (from >= count) return 0;
  const used = measures.map((m) => (m.frame ?? 0) + (m.sizes[from] ?? 0));
  let k = 1;
  for (; from + k < count; k++) {
    const i = from + k;
    if (measures.some((m, j) => (used[j] ?? 0) + (m.separator ?? 0) + (m.sizes[i] ?? 0) > m.budget)) break;
    measures.forEach((m, j) => {
      used[j] = (used[j] ?? 0) + (m.separator ?? 0) + (m.sizes[i] ?? 0);
    });
  }
  return k;
}

/**
 * The items, in order, as parts each filled as full as every measure allows before the next
 * begins (in a fixed order, the fewest parts): how many items each part takes. No items are one
 * part of none. `maxParts`: at most that many parts; the items after them are in none (the
 * receiver counts them as left out).
 */
export function packParts(measures: readonly PartMeasure[], maxParts = Infinity): number[] {
  const count = measures[0]?.sizes.length ?? 0;
  if (count === 0) return [0];
  const parts: number[] = [];
  for (let from = 0; from < count && parts.length < maxParts;) {
    const k = fitFrom(measures, from);
    parts.push(k);
    from += k;
  }
  return parts;
}

/**
 * The JSON arrays of `sizes`' items (bytes each, UTF-8), split in order into runs whose array
 * (`[a,b,...]`: the brackets and commas counted) is at most `budget` bytes: how many items each
 * run takes (packParts). An item too large for any array goes alone; `budget` 0 is no bound (one
 * run); no items are one run of none (an empty array).
 */
export function arrayRunsWithin(sizes: readonly number[], budget: number): number[] {
  if (sizes.length === 0 || budget <= 0) return [sizes.length];
  return packParts([{ sizes, budget, separator: 1, frame: 2 }]);
}

/**
 * How each receiver numbers the parts of a group split in several messages, as its docs (the
 * README) show it: `{part}` and `{parts}` replaced.
 */
export const PART_LABELS = {
  /** `(2/3)`, at the end of a title. */
  ntfy: '({part}/{parts})',
  pushover: '({part}/{parts})',
  matrix: '({part}/{parts})',
  /** `(part 2/3)`, at the end of a title. */
  gotify: '(part {part}/{parts})',
  /** `(part 2 of 3)`, at the end of a card's title. */
  teams: '(part {part} of {parts})',
  /** `part 2/3`, one of the header's facts (`·` between them). */
  telegram: 'part {part}/{parts}',
} as const;

/** Part `part` of `parts` as `label` (PART_LABELS) says (a receiver shows it only when there are several). */
export function partLabel(label: string, part: number, parts: number): string {
  return label.replace('{part}', String(part)).replace('{parts}', String(parts));
}

/** UTF-8 bytes of a text. */
export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
