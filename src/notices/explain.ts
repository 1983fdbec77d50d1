/**
 * Explained closures (notices.md section 3): a network closure is explained while a maintenance
 * window of the exchange with scope `exchange` or `funding` (naming this coin, where it names
 * coins) is ongoing, or began or ends within an hour of the closure; or while an announcement of
 * kind `maintenance` or `delisting`, published within `explains_for`, names the coin (and, where
 * it names chains, the closure's chain).
 */
import type { NoticeBook } from './book';
import type { Announcement, Maintenance } from './model';
import { oneWindowEach } from './same-window';

/** How near a window's begin or end a closure still counts as its. */
export const WINDOW_SLACK_MS = 3_600_000;

export interface Closure {
  readonly coin: string;
  /** The network's canonical chain (undefined when unknown). */
  readonly chain: string | undefined;
  /** When the closure began. */
  readonly at: number;
}

export type Explanation = { readonly kind: 'maintenance'; readonly notice: Maintenance } | { readonly kind: 'announcement'; readonly notice: Announcement };

/** `windows`: the book's windows one per window seen (same-window.ts), when the caller has them already. */
export function explain(book: NoticeBook, closure: Closure, now: number, explainsForMs: number, windows: readonly Maintenance[] = oneWindowEach(book.windows.values())): Explanation | undefined {
  // One window seen through two sources explains as one: by the coins either names (same-window.ts).
  for (const w of windows) if (windowExplains(w, closure)) return { kind: 'maintenance', notice: w };
  let best: Announcement | undefined;
  for (const a of book.announcements.values()) {
    if (a.kind !== 'maintenance' && a.kind !== 'delisting') continue;
    if (now - a.published > explainsForMs || !a.coins.includes(closure.coin)) continue;
    if (a.chains.length > 0 && (closure.chain === undefined || !a.chains.includes(closure.chain))) continue;
    if (best === undefined || a.published > best.published) best = a;
  }
  return best === undefined ? undefined : { kind: 'announcement', notice: best };
}

function windowExplains(w: Maintenance, c: Closure): boolean {
  if (w.scope !== 'exchange' && w.scope !== 'funding') return false;
  if (w.coins.length > 0 && !w.coins.includes(c.coin)) return false;
  if (w.state === 'canceled') return false;
  if (w.state === 'ongoing') return true;
  if (Math.abs(c.at - w.begins) <= WINDOW_SLACK_MS) return true;
  return w.ends !== null && Math.abs(w.ends - c.at) <= WINDOW_SLACK_MS;
}

/** The `notice` annotation of a closure alert: the explaining notice's title and URL, or `none`. */
export function noticeAnnotation(e: Explanation | undefined): string {
  if (e === undefined) return 'none';
  return e.notice.url === null ? e.notice.title : `${e.notice.title} ${e.notice.url}`;
}
