/**
 * The status page's banner of notices (notices.md section 5): the maintenance windows under way
 * and coming of every exchange, and the week's announcements that name a watched coin (a coin the
 * exchange lists: an announcement's mentions are already matched against its coin list, so one
 * with coins names one). Pure: built from the mirror's notice lists and the time, rendered as HTML
 * with every upstream text escaped; nothing at all when there is nothing to tell.
 */
import { escapeHtml as h } from '../lib/html';
import type { NoticeLists } from '../notices/book-json';
import type { AnnouncementKind, Scope } from '../notices/model';
import { time } from './status-cards';

/** Items of each list the banner shows at most; the rest are counted ("and N more"). */
export const NOTICE_ROWS = { windows: 10, announcements: 10 } as const;

/** Announcements published this long ago at most are shown. */
export const ANNOUNCEMENT_SHOWN_MS = 7 * 24 * 3_600_000;

export interface BannerWindow {
  exchange: string;
  title: string;
  state: 'ongoing' | 'scheduled';
  begins: number;
  ends: number | null;
  scope: Scope;
  url: string | null;
}

export interface BannerAnnouncement {
  exchange: string;
  kind: AnnouncementKind;
  title: string;
  url: string | null;
  published: number;
  coins: string[];
}

export interface NoticeBanner {
  windows: BannerWindow[];
  windowsTotal: number;
  announcements: BannerAnnouncement[];
  announcementsTotal: number;
}

/**
 * The banner's items: windows ongoing first, then scheduled, each soonest begin first; the
 * announcements of the last 7 days naming a coin, newest first. A window two sources tell (an
 * exchange's own list and its Statuspage: same title, begin, end and state) is shown once, with
 * the scope and url either knows (the first source by name that knows one).
 */
export function noticeBanner(lists: Iterable<NoticeLists>, now: number): NoticeBanner {
  const windows = new Map<string, BannerWindow>();
  const announcements: BannerAnnouncement[] = [];
  for (const l of lists) {
    // By source, so which scope is kept when two sources say two is the same every time.
    for (const w of [...l.windows].sort((a, b) => cmp(a.source, b.source))) {
      if (w.state !== 'ongoing' && w.state !== 'scheduled') continue;
      const key = JSON.stringify([w.exchange, w.title, w.state, w.begins, w.ends]);
      const seen = windows.get(key);
      if (seen === undefined) windows.set(key, { exchange: w.exchange, title: w.title, state: w.state, begins: w.begins, ends: w.ends, scope: w.scope, url: w.url });
      else windows.set(key, { ...seen, scope: seen.scope === 'unknown' ? w.scope : seen.scope, url: seen.url ?? w.url });
    }
    for (const a of l.announcements) {
      if (a.coins.length > 0 && a.published >= now - ANNOUNCEMENT_SHOWN_MS) announcements.push({ exchange: a.exchange, kind: a.kind, title: a.title, url: a.url, published: a.published, coins: [...a.coins] });
    }
  }
  const rank = { ongoing: 0, scheduled: 1 } as const;
  const shown = [...windows.values()].sort((a, b) => rank[a.state] - rank[b.state] || a.begins - b.begins || cmp(a.exchange, b.exchange) || cmp(a.title, b.title));
  announcements.sort((a, b) => b.published - a.published || cmp(a.exchange, b.exchange) || cmp(a.title, b.title));
  return {
    windows: shown.slice(0, NOTICE_ROWS.windows),
    windowsTotal: shown.length,
    announcements: announcements.slice(0, NOTICE_ROWS.announcements),
    announcementsTotal: announcements.length,
  };
}

/** An upstream url as a link only when it is http(s): any other scheme is shown as no link. The title is isolated (`<bdi>`): right-to-left text in it cannot reorder the line. */
function linked(title: string, url: string | null): string {
  const text = `<bdi>${h(title)}</bdi>`;
  return url !== null && /^https?:\/\//i.test(url) ? `<a href="${h(url)}" rel="noopener noreferrer">${text}</a>` : text;
}

function windowItem(w: BannerWindow): string {
  const ends = w.ends === null ? 'end unknown' : `to <time>${h(time(w.ends))}</time>`;
  return `<li class="${w.state}"><b>${w.state === 'ongoing' ? 'under way' : 'scheduled'}</b> ${linked(w.title, w.url)} <span class="ex">${h(w.exchange)}</span> · from <time>${h(time(w.begins))}</time> ${ends} · scope ${h(w.scope)}</li>`;
}

function announcementItem(a: BannerAnnouncement): string {
  return `<li><time>${h(time(a.published))}</time> <b>${h(a.kind)}</b> ${linked(a.title, a.url)} <span class="ex">${h(a.exchange)}</span> · ${h(a.coins.join(', '))}</li>`;
}

const more = (shown: number, total: number): string => (total > shown ? `\n<p class="more">… and ${total - shown} more (<a href="/api/v1/notices">all notices</a>).</p>` : '');

/** The banner's HTML, or '' when there is no window under way or coming and no announcement to tell. */
export function renderNoticeBanner(b: NoticeBanner): string {
  const parts: string[] = [];
  if (b.windows.length > 0) {
    parts.push(`<h2 id="maintenance">Maintenance under way and coming (${b.windowsTotal})</h2>
<ul class="notices" id="maintenance-list">
${b.windows.map(windowItem).join('\n')}
</ul>${more(b.windows.length, b.windowsTotal)}`);
  }
  if (b.announcements.length > 0) {
    parts.push(`<h2 id="announcements">Announcements naming watched coins, last 7 days (${b.announcementsTotal})</h2>
<ul class="notices" id="announcement-list">
${b.announcements.map(announcementItem).join('\n')}
</ul>${more(b.announcements.length, b.announcementsTotal)}`);
  }
  return parts.length === 0 ? '' : `<section class="banner" id="notices">\n${parts.join('\n')}\n</section>\n`;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
