/**
 * What the reference exchange says before and while it closes (notices.md): maintenance windows,
 * published announcements, and the exchange status they imply. Changed only through actions
 * (actions/apply-notices.ts); read through `noticeView`, which takes the time as an argument:
 * a scheduled window is ongoing once its begin has come and completed once its end has passed,
 * with no timer anywhere.
 */

export const WINDOW_SCOPES = ['exchange', 'trading', 'funding', 'api', 'other'] as const;
export type WindowScope = (typeof WINDOW_SCOPES)[number];

export const WINDOW_ORIGINS = ['planned', 'unplanned', 'incident'] as const;
export type WindowOrigin = (typeof WINDOW_ORIGINS)[number];

/** What the exchange as a whole is while a window of scope exchange or trading is ongoing. */
export const WINDOW_STATUSES = ['maintenance', 'cancel_only', 'post_only'] as const;
export type WindowStatus = (typeof WINDOW_STATUSES)[number];

export type WindowState = 'scheduled' | 'ongoing' | 'completed' | 'canceled';

export const ANNOUNCEMENT_KINDS = ['listing', 'delisting', 'maintenance', 'other'] as const;
export type AnnouncementKind = (typeof ANNOUNCEMENT_KINDS)[number];

export interface SimWindow {
  id: string;
  title: string;
  /**
   * What an action last set: `scheduled` (ongoing from `begins`, completed after `ends`),
   * `ongoing` (started by hand; completed after `ends`), `completed`, `canceled`.
   */
  state: WindowState;
  begins: number;
  /** Expected end; the actual end once completed; null when unknown. */
  ends: number | null;
  scope: WindowScope;
  origin: WindowOrigin;
  status: WindowStatus;
  coins: string[];
  url: string | null;
  /** When the window was first published, and last changed. */
  created: number;
  updated: number;
  /** The begin before the last reschedule (OKX `scheDesc`); null when never rescheduled. */
  rescheduledFrom: number | null;
}

export interface SimAnnouncement {
  id: number;
  kind: AnnouncementKind;
  title: string;
  published: number;
  /** null: each dialect links to its own help centre (dialects/notices/). */
  url: string | null;
  coins: string[];
}

export interface Notices {
  /** In order of scheduling (a window scheduled again under its id keeps its place). */
  windows: SimWindow[];
  /** Oldest first; at most MAX_ANNOUNCEMENTS (a looping scenario must not pile them up). */
  announcements: SimAnnouncement[];
}

export const MAX_ANNOUNCEMENTS = 200;

export function createNotices(): Notices {
  return { windows: [], announcements: [] };
}

/** A window as it reads at a given time. */
export interface WindowView extends Omit<SimWindow, 'state'> {
  state: WindowState;
}

/** The exchange as a whole: normal, or the status of the ongoing window that closes it. */
export interface StatusView {
  state: 'normal' | WindowStatus;
  /** The window behind a state other than normal. */
  window: WindowView | null;
}

export interface NoticeView {
  now: number;
  windows: readonly WindowView[];
  /** Newest first (by published, then by id). */
  announcements: readonly SimAnnouncement[];
  status: StatusView;
}

/** The state a window has at `now`: time moves a scheduled window on; an action's end is final. */
export function windowState(w: SimWindow, now: number): WindowState {
  if (w.state === 'completed' || w.state === 'canceled') return w.state;
  if (w.state === 'scheduled' && now < w.begins) return 'scheduled';
  if (w.ends !== null && now >= w.ends) return 'completed';
  return 'ongoing';
}

/** A copy with its state at `now` (a window that ran out its time ended when due: `ends` stands). */
export function viewWindow(w: SimWindow, now: number): WindowView {
  return { ...w, state: windowState(w, now) };
}

const SEVERITY: Record<StatusView['state'], number> = { normal: 0, post_only: 1, cancel_only: 2, maintenance: 3 };

/** notices.md 1: a window of scope exchange or trading that is ongoing sets the exchange's status. */
export function exchangeStatus(windows: readonly WindowView[]): StatusView {
  let status: StatusView = { state: 'normal', window: null };
  for (const w of windows) {
    if (w.state !== 'ongoing' || (w.scope !== 'exchange' && w.scope !== 'trading')) continue;
    if (SEVERITY[w.status] > SEVERITY[status.state]) status = { state: w.status, window: w };
  }
  return status;
}

export function noticeView(notices: Notices, now: number): NoticeView {
  const windows = notices.windows.map((w) => viewWindow(w, now));
  const announcements = [...notices.announcements].sort((a, b) => b.published - a.published || b.id - a.id);
  return { now, windows, announcements, status: exchangeStatus(windows) };
}
