/**
 * One window seen through two sources is one window (an exchange's own list and its Statuspage
 * both tell the same upgrade). Two windows of one exchange are the same window when
 * - they come from different sources (one source never lists a window twice);
 * - their times overlap (`begins` to `ends`, an unknown end open);
 * - their scopes agree: equal, or one of them `unknown`;
 * - their coins agree: the same coins, or one of them names none.
 * A group holds at most one window per source. It is read as one window: its id, title, url,
 * source and times are those of its first member, the one seen first (a book keeps its windows
 * in the order first read, across restarts too), so its identity (a rule's alert, the
 * `maintenance` label) stays when the second source tells it; its state is the furthest along
 * any member is (one that started has started, one that ended has ended: sources lag; between
 * completed and canceled, the first member's); its scope the first known one; its coins and
 * symbols those of the members that name some.
 */
import type { Maintenance, MaintenanceState } from './model';

const PROGRESS: Readonly<Record<MaintenanceState, number>> = { scheduled: 0, ongoing: 1, completed: 2, canceled: 2 };

function overlap(a: Maintenance, b: Maintenance): boolean {
  return a.begins <= (b.ends ?? Infinity) && b.begins <= (a.ends ?? Infinity);
}

function sameCoins(a: readonly string[], b: readonly string[]): boolean {
  if (a.length === 0 || b.length === 0) return true;
  const set = new Set(a);
  return a.length === b.length && b.every((c) => set.has(c));
}

/** Whether two windows of one exchange are one window (see above). */
export function sameWindow(a: Maintenance, b: Maintenance): boolean {
  return (
    a.exchange === b.exchange && a.source !== b.source && overlap(a, b) &&
    (a.scope === b.scope || a.scope === 'unknown' || b.scope === 'unknown') && sameCoins(a.coins, b.coins)
  );
}

function merged(group: readonly Maintenance[]): Maintenance {
  const [first, ...rest] = group as [Maintenance, ...Maintenance[]];
  if (rest.length === 0) return first;
  const furthest = group.reduce((a, w) => (PROGRESS[w.state] > PROGRESS[a.state] ? w : a), first);
  const state: MaintenanceState = PROGRESS[furthest.state] > PROGRESS[first.state] ? furthest.state : first.state;
  const scope = group.find((w) => w.scope !== 'unknown')?.scope ?? first.scope;
  const naming = group.filter((w) => w.coins.length > 0 || w.symbols.length > 0);
  const coins = [...new Set(naming.flatMap((w) => w.coins))];
  const symbols = [...new Set(naming.flatMap((w) => w.symbols))];
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
