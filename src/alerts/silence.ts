import { compileMatcher, matchesAll } from '../rules/match';
import type { Matcher } from '../rules/model';

/** A silence: alerts whose labels match every matcher are not notified between start and end. */
export interface Silence {
  id: string;
  matchers: { label: string; pattern: string }[];
  startsAt: number;
  endsAt: number;
  comment: string;
  createdBy: string;
}

/**
 * How long an expired API silence is kept (listed as `expired`) before it is deleted from
 * memory and the store: 5 days, as Alertmanager keeps them.
 */
export const SILENCE_RETENTION_MS = 5 * 86_400_000;

/** Whether a silence is still kept at `now`: not yet ended, or ended within the retention. */
export function silenceKept(s: Pick<Silence, 'endsAt'>, now: number): boolean {
  return s.endsAt > now - SILENCE_RETENTION_MS;
}

/** A maintenance window that recurs: on these weekdays, between these times, in a time zone. */
export interface MaintenanceWindow {
  name: string;
  matchers: { label: string; pattern: string }[];
  /** 0 = Sunday ... 6 = Saturday. Empty: every day. */
  weekdays: number[];
  /** Minutes after local midnight; an end before the start crosses midnight. */
  startMinute: number;
  endMinute: number;
  timeZone: string;
}

export const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;

/** notify.silences[] as the config file writes them. */
export interface SilenceInput {
  matchers: Record<string, string>;
  starts_at: string;
  ends_at: string;
  comment: string;
}

/** notify.maintenance[] as the config file writes them. */
export interface MaintenanceInput {
  name: string;
  matchers: Record<string, string>;
  weekdays: readonly (typeof WEEKDAYS)[number][];
  /** HH:MM, 24-hour. */
  start: string;
  end: string;
  time_zone: string;
}

function matchersOf(map: Record<string, string>): { label: string; pattern: string }[] {
  return Object.entries(map).map(([label, pattern]) => ({ label, pattern }));
}

function toMinutes(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
}

/** The config's silences, with ids of their own (`config-N`). */
export function configSilences(silences: readonly SilenceInput[]): Silence[] {
  return silences.map((s, i) => ({
    id: `config-${i}`,
    matchers: matchersOf(s.matchers),
    startsAt: Date.parse(s.starts_at),
    endsAt: Date.parse(s.ends_at),
    comment: s.comment,
    createdBy: 'config',
  }));
}

export function maintenanceWindows(windows: readonly MaintenanceInput[]): MaintenanceWindow[] {
  return windows.map((w) => ({
    name: w.name,
    matchers: matchersOf(w.matchers),
    weekdays: w.weekdays.map((d) => WEEKDAYS.indexOf(d)),
    startMinute: toMinutes(w.start),
    endMinute: toMinutes(w.end),
    timeZone: w.time_zone,
  }));
}

interface Compiled<T> {
  item: T;
  matchers: Matcher[];
}

function compile<T extends { matchers: { label: string; pattern: string }[] }>(item: T): Compiled<T> {
  return { item, matchers: item.matchers.map((m) => compileMatcher(m.label, m.pattern)) };
}

/** Weekday and minute of the day of `now` in a time zone. */
export function localTime(now: number, timeZone: string): { weekday: number; minute: number } {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(new Date(now));
  const get = (type: string): string => parts.find((p) => p.type === type)?.value ?? '';
  const weekday = WEEKDAYS.indexOf(get('weekday').toLowerCase().slice(0, 3) as (typeof WEEKDAYS)[number]);
  return { weekday, minute: Number(get('hour')) * 60 + Number(get('minute')) };
}

export function windowActive(w: MaintenanceWindow, now: number): boolean {
  const { weekday, minute } = localTime(now, w.timeZone);
  const onDay = (d: number): boolean => w.weekdays.length === 0 || w.weekdays.includes(d);
  if (w.startMinute <= w.endMinute) return onDay(weekday) && minute >= w.startMinute && minute < w.endMinute;
  // Crosses midnight: the part after midnight belongs to the previous day's window.
  return (onDay(weekday) && minute >= w.startMinute) || (onDay((weekday + 6) % 7) && minute < w.endMinute);
}

/** Decides what is muted: silences (from config and the API) and maintenance windows. Pure: `now` is passed in. */
export class Muter {
  private silences: Compiled<Silence>[] = [];
  private windows: Compiled<MaintenanceWindow>[] = [];

  setSilences(silences: readonly Silence[]): void {
    this.silences = silences.map(compile);
  }

  setWindows(windows: readonly MaintenanceWindow[]): void {
    this.windows = windows.map(compile);
  }

  /** Nothing can mute: no silence and no maintenance window at all. */
  get idle(): boolean {
    return this.silences.length === 0 && this.windows.length === 0;
  }

  /** Why the labels are muted at `now` (a silence id or window name), or undefined. */
  mutedBy(labels: Readonly<Record<string, string>>, now: number): string | undefined {
    for (const s of this.silences) if (s.item.startsAt <= now && now < s.item.endsAt && matchesAll(s.matchers, labels)) return `silence ${s.item.id}`;
    for (const w of this.windows) if (windowActive(w.item, now) && matchesAll(w.matchers, labels)) return `maintenance ${w.item.name}`;
    return undefined;
  }
}
