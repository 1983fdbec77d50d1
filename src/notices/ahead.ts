/**
 * What the digest and the chat bots show of the notices (notices.md section 5): the maintenance
 * windows ongoing and those scheduled ahead, and the announcements recently published. Pure:
 * over the lists the main thread holds (runtime/read-model.ts), at `now`.
 */
import type { NoticeLists } from './book-json';
import type { Announcement, Maintenance } from './model';

/**
 * The windows ongoing, and those scheduled to begin within `withinMs` of `now` (every scheduled
 * one when undefined; one whose begin has passed while its source still says scheduled counts),
 * in the order of the lists given (the exchanges'), each exchange's ongoing first, then by begin.
 * One window two sources tell (an exchange's own list and its Statuspage: same title, begin
 * and end) is shown once, as the first source by name tells it.
 */
export function windowsAhead(lists: Iterable<NoticeLists>, now: number, withinMs?: number): Maintenance[] {
  const out: Maintenance[] = [];
  for (const l of lists) {
    const seen = new Set<string>();
    const kept = l.windows
      .filter((w) => w.state === 'ongoing' || (w.state === 'scheduled' && (withinMs === undefined || w.begins <= now + withinMs)))
      .sort((a, b) => rank(a) - rank(b) || a.begins - b.begins || cmp(a.source, b.source) || cmp(a.id, b.id));
    for (const w of kept) {
      const key = `${w.exchange}\u0000${w.title}\u0000${w.begins}\u0000${w.ends}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(w);
    }
  }
  return out;
}

/** The announcements published within `withinMs` before `now`, every exchange's, newest first. */
export function announcedSince(lists: Iterable<NoticeLists>, now: number, withinMs: number): Announcement[] {
  const out: Announcement[] = [];
  for (const l of lists) for (const a of l.announcements) if (a.published >= now - withinMs) out.push(a);
  return out.sort((a, b) => b.published - a.published || cmp(a.exchange, b.exchange) || cmp(a.id, b.id));
}

function rank(w: Maintenance): number {
  return w.state === 'ongoing' ? 0 : 1;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
