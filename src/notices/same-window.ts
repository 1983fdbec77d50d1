/**
 * One window seen through two sources is one window (an exchange's own list and its Statuspage
 * both tell the same upgrade). Two windows of one exchange are the same window when
 * - they come from different sources (one source never lists a window twice);
 * - neither is canceled (a canceled window is no longer the one another source tells);
 * - their times overlap (`begins` to `ends`); where an end is unknown, they begin within an hour of
 *   each other (an open end would overlap every later window); or they have the same title and
 *   begin within a day of each other (a window started early or rescheduled moves at one source
 *   before the other is read again: it stays one window meanwhile, its alerts do not flap);
 * - their scopes agree: equal, or one of them `unknown` or `exchange` (a Statuspage window without
 *   components is `exchange`, the exchange's own list says which part);
 * - their coins agree: the same coins, or one of them names none.
 * A group holds at most one window per source. It is read as one window: its id, title, url,
 * source and times are those of its first member, the one seen first (a book keeps its windows
 * in the order first read, across restarts too), so its identity (a rule's alert, the
 * `maintenance` label) stays when the second source tells it; its state is the furthest along
 * any member is (one that started has started, one that ended has ended: sources lag); its scope
 * the narrowest known one; its coins and symbols those the members name, none (every coin) when
 * a member names none.
 */
import type { Maintenance, MaintenanceState } from './model';

const PROGRESS: Readonly<Record<MaintenanceState, number>> = { scheduled: 0, ongoing: 1, completed: 2, canceled: 2 };

/** How far apart two windows of which one has no known end may begin and be one window. */
const OPEN_END_BEGINS_WITHIN_MS = 3_600_000;

/** How far apart two windows of one title may begin and be one window (moved at one source only). */
const SAME_TITLE_BEGINS_WITHIN_MS = 86_400_000;

function overlap(a: Maintenance, b: Maintenance): boolean {
  if (a.title.trim().toLowerCase() === b.title.trim().toLowerCase() && Math.abs(a.begins - b.begins) <= SAME_TITLE_BEGINS_WITHIN_MS) return true;
  if (a.ends === null || b.ends === null) return Math.abs(a.begins - b.begins) <= OPEN_END_BEGINS_WITHIN_MS;
  return a.begins <= b.ends && b.begins <= a.ends;
}

const WIDE: ReadonlySet<Maintenance['scope']> = new Set(['unknown', 'exchange']);

function sameCoins(a: readonly string[], b: readonly string[]): boolean {
  if (a.length === 0 || b.length === 0) return true;
  const set = new Set(a);
  return a.length === b.length && b.every((c) => set.has(c));
}

/** Whether two windows of one exchange are one window (see above). */
export function sameWindow(a: Maintenance, b: Maintenance): boolean {
  return (
    a.exchange === b.exchange && a.source !== b.source && a.state !== 'canceled' && b.state !== 'canceled' && overlap(a, b) &&
    (a.scope === b.scope || WIDE.has(a.scope) || WIDE.has(b.scope)) && sameCoins(a.coins, b.coins)
  );
}

function merged(group: readonly Maintenance[]): Maintenance {
  const [first, ...rest] = group as [Maintenance, ...Maintenance[]];
  if (rest.length === 0) return first;
  const furthest = group.reduce((a, w) => (PROGRESS[w.state] > PROGRESS[a.state] ? w : a), first);
  const state: MaintenanceState = PROGRESS[furthest.state] > PROGRESS[first.state] ? furthest.state : first.state;
  const scope = group.find((w) => !WIDE.has(w.scope))?.scope ?? group.find((w) => w.scope !== 'unknown')?.scope ?? first.scope;
  // A member that names nothing covers every coin: so does the window.
  const all = group.some((w) => w.coins.length === 0 && w.symbols.length === 0);
  const coins = all ? [] : [...new Set(group.flatMap((w) => w.coins))];
  const symbols = all ? [] : [...new Set(group.flatMap((w) => w.symbols))];
  return { ...first, state, scope, coins, symbols };
}

/** The windows (in the order first seen) as one per window: each group of the same window merged (see above). */
export function oneWindowEach(windows: Iterable<Maintenance>): Maintenance[] {
  const groups: Maintenance[][] = [];
  for (const w of windows) {
    const group = groups.find((g) => g.every((m) => sameWindow(m, w)));
    if (group === undefined) groups.push([w]);
    else group.push(w);
  }
  return groups.map(merged);
}
