/**
 * What an exchange's notice sources have said, as one value (notices.md): its status, the
 * maintenance windows known, the announcements read. `applyRead` takes one source's read and
 * returns the next book and what is new. Pure: time is an argument; mentions are matched by the
 * function given (the exchange's own lists).
 */
import type { Announcement, ExchangeStatus, Maintenance, MaintenanceState, NoticeRead } from './model';
import type { MentionOptions } from './mentions';

/** Completed and canceled windows, and announcements, are kept this long after they ended or were published. */
export const KEEP_ENDED_MS = 30 * 24 * 3_600_000;

export interface NoticeBook {
  readonly status: ExchangeStatus | undefined;
  /** Windows by windowKey (two sources may use one id: an exchange's own list and its Statuspage). */
  readonly windows: ReadonlyMap<string, Maintenance>;
  /** Announcements by id. */
  readonly announcements: ReadonlyMap<string, Announcement>;
  /** Sources whose first announcement read (the baseline) has been taken. */
  readonly baselined: ReadonlySet<string>;
  /** Windows (by windowKey) judged by their times because the source's follow-up failed: asked about again at its next read. */
  readonly unsettled: ReadonlySet<string>;
}

/** A window's key in the book: its source and its id. */
export function windowKey(w: Pick<Maintenance, 'source' | 'id'>): string {
  return `${w.source}\u0000${w.id}`;
}

export const EMPTY_NOTICES: NoticeBook = { status: undefined, windows: new Map(), announcements: new Map(), baselined: new Set(), unsettled: new Set() };

/**
 * The coins, symbols and chains a title names, among the exchange's own (notices/mentions.ts);
 * `incidental`: also a listed ticker standing anywhere as a whole upper-case word.
 */
export type MentionsOf = (title: string, options?: MentionOptions) => { coins: readonly string[]; symbols: readonly string[]; chains: readonly string[] };

export interface WindowChange {
  readonly window: Maintenance;
  /** Its state before (undefined: first seen). */
  readonly from: MaintenanceState | undefined;
}

export interface BookUpdate {
  readonly book: NoticeBook;
  /** Announcements read for the first time after the source's baseline: each one an event. */
  readonly published: readonly Announcement[];
  /** Announcements read for the first time, the baseline included (the metric counts them). */
  readonly firstRead: readonly Announcement[];
  /** Windows first seen or whose state changed. */
  readonly windows: readonly WindowChange[];
}

export interface ReadOptions {
  /**
   * How a known window that left the source's list is judged: canceled when it had not begun,
   * else completed (its end, else now), in both. `judge` (Statuspage, HTX, Bybit): that is all;
   * `ask` (OKX): the read already holds what the source's follow-up said (completed or canceled
   * lists), and the windows it could not tell about (`read.unsettled`: it failed) are judged for
   * now and kept unsettled, to be asked about again.
   */
  readonly vanished: 'judge' | 'ask';
}

export function applyRead(book: NoticeBook, exchange: string, source: string, read: NoticeRead, now: number, mentionsOf: MentionsOf, options: ReadOptions): BookUpdate {
  let { status, windows, announcements, baselined, unsettled } = book;
  const windowChanges: WindowChange[] = [];
  const published: Announcement[] = [];
  const firstRead: Announcement[] = [];

  if (read.status !== undefined) {
    const s = read.status;
    const since = s.since ?? (status !== undefined && status.state === s.state ? status.since : now);
    status = { exchange, state: s.state, message: s.message === '' ? null : s.message, since, checked: now };
  }

  if (read.maintenance !== undefined) {
    const next = new Map(windows);
    const listed = new Set<string>();
    for (const w of read.maintenance) {
      listed.add(windowKey(w));
      const before = windows.get(windowKey(w));
      const { named: texts, ...fields } = w;
      // A window names coins as its source lists them, else as its title and its components do.
      const named = w.coins.length > 0 || w.symbols.length > 0 ? undefined : windowMentions(w.title, texts ?? [], mentionsOf);
      const window: Maintenance = { ...fields, exchange, ...(named !== undefined && named) };
      if (before === undefined || !unchanged(before, window)) {
        next.set(windowKey(w), window);
        if (before === undefined || before.state !== window.state) windowChanges.push({ window, from: before?.state });
      }
    }
    for (const [id, w] of windows) {
      if (w.source !== source || listed.has(id) || w.state === 'completed' || w.state === 'canceled') continue;
      // Never left ongoing past its end nor scheduled once its source no longer lists it.
      const state: MaintenanceState = now < w.begins && w.state === 'scheduled' ? 'canceled' : 'completed';
      const ended: Maintenance = { ...w, state, ...(state === 'completed' && (w.ends === null || w.ends > now) && { ends: now }) };
      next.set(id, ended);
      windowChanges.push({ window: ended, from: w.state });
    }
    // This source's unsettled windows are the ones this read could not settle; the others' stay as they were.
    const asked = options.vanished === 'ask' ? (read.unsettled ?? []).map((id) => windowKey({ source, id })) : [];
    for (const [id, w] of next) if ((w.state === 'completed' || w.state === 'canceled') && now - (w.ends ?? w.begins) > KEEP_ENDED_MS) next.delete(id);
    unsettled = new Set([...[...unsettled].filter((key) => windows.get(key)?.source !== source), ...asked.filter((key) => !listed.has(key))].filter((key) => next.has(key)));
    windows = next;
  }

  if (read.announcements !== undefined) {
    const next = new Map(announcements);
    const baseline = !baselined.has(source);
    for (const a of read.announcements) {
      if (next.has(a.id)) continue;
      const named = mentionsOf(a.title);
      const announcement: Announcement = { ...a, exchange, coins: [...named.coins], symbols: [...named.symbols], chains: [...named.chains] };
      next.set(a.id, announcement);
      firstRead.push(announcement);
      if (!baseline) published.push(announcement);
    }
    for (const [id, a] of next) if (now - a.published > KEEP_ENDED_MS) next.delete(id);
    announcements = next;
    if (baseline) baselined = new Set([...baselined, source]);
  }

  return { book: { status, windows, announcements, baselined, unsettled }, published, firstRead, windows: windowChanges };
}

/** A listed ticker named as what a funding window closes: `USDT wallet`, `ETH deposits`, `BTC withdrawals`. */
const FUNDING_LABEL = /\b([A-Z][A-Z0-9]{1,11})\s+(?:wallets?|deposits?|withdrawals?|withdraws?)\b/gi;
/** A component named by a ticker alone (`BTC`). */
const TICKER_ALONE = /^[A-Z][A-Z0-9]{1,11}$/;

/**
 * What a window names: its title and the texts beside it (a Statuspage's component names), read
 * as notices.md section 2 reads a title (incidental mentions stay off: "suspended for ONE hour"
 * names no coin), and, as the labels of what a window closes, a listed ticker in upper case
 * right before wallet / deposits / withdrawals ("USDT wallet maintenance") or a component named
 * by a listed ticker alone.
 */
function windowMentions(title: string, texts: readonly string[], mentionsOf: MentionsOf): { coins: string[]; symbols: string[] } {
  const coins = new Set<string>();
  const symbols = new Set<string>();
  const labelled = (ticker: string): void => {
    if (ticker !== ticker.toUpperCase()) return;
    for (const c of mentionsOf(ticker, { incidental: true }).coins) coins.add(c);
  };
  for (const text of [title, ...texts]) {
    const m = mentionsOf(text);
    for (const c of m.coins) coins.add(c);
    for (const x of m.symbols) symbols.add(x);
    for (const f of text.matchAll(FUNDING_LABEL)) labelled(f[1] ?? '');
  }
  for (const text of texts) if (TICKER_ALONE.test(text.trim())) labelled(text.trim());
  return { coins: [...coins], symbols: [...symbols] };
}

function unchanged(a: Maintenance, b: Maintenance): boolean {
  return (
    a.title === b.title && a.state === b.state && a.begins === b.begins && a.ends === b.ends && a.origin === b.origin && a.scope === b.scope &&
    a.url === b.url && a.source === b.source && sameList(a.coins, b.coins) && sameList(a.symbols, b.symbols)
  );
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** The windows of `source` a read asks about when its list no longer has them: held as scheduled or ongoing, or unsettled. */
export function openWindows(book: NoticeBook, source: string): Maintenance[] {
  return [...book.windows.entries()].filter(([key, w]) => w.source === source && (w.state === 'scheduled' || w.state === 'ongoing' || book.unsettled.has(key))).map(([, w]) => w);
}
