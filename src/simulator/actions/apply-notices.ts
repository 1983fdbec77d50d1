/** Actions on notices: the life of a maintenance window, and announcements (market/notices.ts). */
import type { Market } from '../market/model';
import { MAX_ANNOUNCEMENTS, windowState, type AnnouncementKind, type SimWindow } from '../market/notices';
import { ActionError } from './action-error';
import type { Action } from './schema';

type Of<K extends Action['action']> = Extract<Action, { action: K }>;

function windowOf(market: Market, id: string): SimWindow {
  const found = market.notices.windows.find((w) => w.id === id);
  if (found === undefined) {
    const ids = market.notices.windows.map((w) => w.id);
    throw new ActionError([`no maintenance window "${id}"${ids.length > 0 ? ` (there are: ${ids.join(', ')})` : ' (schedule it first)'}`]);
  }
  return found;
}

function beginOf(a: { begins_in?: number | undefined; begins_at?: number | undefined }, now: number): number {
  return a.begins_at ?? now + (a.begins_in ?? 0);
}

/** Scheduling an id whose window is over publishes a new window under it; one still open is refused. */
export function scheduleMaintenance(market: Market, a: Of<'schedule_maintenance'>, now: number): void {
  const begins = beginOf(a, now);
  const window: SimWindow = {
    id: a.id, title: a.title, state: 'scheduled', begins, ends: a.duration === undefined ? null : begins + a.duration,
    scope: a.scope, origin: a.origin, status: a.status, coins: a.coins, url: a.url ?? null,
    created: now, updated: now, rescheduledFrom: null,
  };
  const windows = market.notices.windows;
  const i = windows.findIndex((w) => w.id === a.id);
  if (i < 0) {
    windows.push(window);
    return;
  }
  const state = windowState(windows[i] as SimWindow, now);
  if (state === 'scheduled' || state === 'ongoing') throw new ActionError([`maintenance window "${a.id}" is already ${state}; reschedule, complete or cancel it`]);
  windows[i] = window;
}

/** Starts a window now: early, or one with no time of its own. */
export function startMaintenance(market: Market, a: Of<'start_maintenance'>, now: number): void {
  const w = windowOf(market, a.id);
  const state = windowState(w, now);
  if (state !== 'scheduled') throw new ActionError([`maintenance window "${a.id}" is ${state}: only a scheduled window starts`]);
  if (w.ends !== null) w.ends = now + (w.ends - w.begins);
  w.begins = now;
  w.state = 'ongoing';
  w.updated = now;
}

/** Completes an ongoing window now: `ends` becomes its actual end. */
export function completeMaintenance(market: Market, a: Of<'complete_maintenance'>, now: number): void {
  const w = windowOf(market, a.id);
  const state = windowState(w, now);
  if (state !== 'ongoing') throw new ActionError([`maintenance window "${a.id}" is ${state}: only an ongoing window completes${state === 'scheduled' ? ' (cancel it instead)' : ''}`]);
  w.state = 'completed';
  w.ends = now;
  w.updated = now;
}

export function cancelMaintenance(market: Market, a: Of<'cancel_maintenance'>, now: number): void {
  const w = windowOf(market, a.id);
  const state = windowState(w, now);
  if (state !== 'scheduled') throw new ActionError([`maintenance window "${a.id}" is ${state}: only a scheduled window is canceled${state === 'ongoing' ? ' (complete it instead)' : ''}`]);
  w.state = 'canceled';
  w.updated = now;
}

/** A new begin (and end) for a window not over yet; it keeps its id and title (OKX has no id but the title). */
export function rescheduleMaintenance(market: Market, a: Of<'reschedule_maintenance'>, now: number): void {
  const w = windowOf(market, a.id);
  const state = windowState(w, now);
  if (state !== 'scheduled' && state !== 'ongoing') throw new ActionError([`maintenance window "${a.id}" is ${state}: only a scheduled or ongoing window is rescheduled`]);
  const begins = beginOf(a, now);
  const length = a.duration ?? (w.ends === null ? null : w.ends - w.begins);
  w.rescheduledFrom = w.begins;
  w.begins = begins;
  w.ends = length === null ? null : begins + length;
  w.state = 'scheduled';
  w.updated = now;
}

const TITLES: Record<AnnouncementKind, (named: string) => string> = {
  listing: (named) => `Will List ${named}`,
  delisting: (named) => `Will Delist ${named}`,
  maintenance: (named) => `Suspension of Deposits and Withdrawals of ${named} for Wallet Maintenance`,
  other: (named) => `Notice on ${named}`,
};

/** `Demo Token (DEMO), Dogecoin (DOGE)`: tickers in parentheses, as exchanges write them (notices.md 2). */
function named(market: Market, coins: readonly string[]): string {
  return coins.map((c) => `${market.coins.get(c)?.name ?? c} (${c})`).join(', ');
}

export function announce(market: Market, a: Of<'announce'>, now: number): void {
  const list = market.notices.announcements;
  const id = a.id ?? list.reduce((max, x) => Math.max(max, x.id), 0) + 1;
  const announcement = { id, kind: a.kind, title: a.title ?? TITLES[a.kind](named(market, a.coins)), published: now, url: a.url ?? null, coins: a.coins };
  const i = list.findIndex((x) => x.id === id);
  if (i >= 0) list.splice(i, 1);
  list.push(announcement);
  if (list.length > MAX_ANNOUNCEMENTS) list.splice(0, list.length - MAX_ANNOUNCEMENTS);
}
