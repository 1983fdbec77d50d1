/**
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
 * The JSON arrays of `sizes`' items (bytes each, UTF-8), split in order into runs whose array
 * (`[a,b,...]`: the brackets and commas counted) is at most `budget` bytes: how many items each
 * run takes. An item too large for any array goes alone; `budget` 0 is no bound (one run); no
 * items are one run of none (an empty array).
 */
export function arrayRunsWithin(sizes: readonly number[], budget: number): number[] {
  if (sizes.length === 0 || budget <= 0) return [sizes.length];
  const runs: number[] = [];
  let count = 0;
  let used = 0;
  for (const size of sizes) {
    if (count > 0 && used + 1 + size + 1 > budget) {
      runs.push(count);
      count = 0;
    }
    used = count === 0 ? 1 + size : used + 1 + size;
    count++;
  }
  runs.push(count);
  return runs;
}

/** UTF-8 bytes of a text. */
export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
