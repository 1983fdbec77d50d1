import { escapeHtml as h } from '../lib/html';
import { shortened } from '../lib/upstream-text';
import { renderFilter, renderNetworks, renderTimeline, time, type TimelineItem } from './status-cards';
import type { NetworkSections } from './status-networks';
import { renderNoticeBanner, type NoticeBanner } from './status-notices';

/**
 * What the status page shows; built by buildStatusView (status-view.ts). Each table holds at
 * most a page of rows; the totals count them all.
 */
export interface StatusView {
  generatedAt: number;
  exchanges: {
    name: string;
    up: boolean;
    polls: Record<'coins' | 'tickers', { at: string; ok: boolean; kind?: string; error?: string } | null>;
    coins: number;
    networks: number;
    tickers: number;
    alertsFiring: number;
  }[];
  exchangesTotal: number;
  /** Each row's `k`: its names (exchange, coin, network, chain, symbol), lower case, which the filter box matches as one types. */
  disabled: { exchange: string; coin: string; network: string; deposit: boolean; withdraw: boolean; since: number | null; message: string | null; k: string }[];
  disabledTotal: number;
  alerts: { severity: string; alertname: string; summary: string; since: number | null; k: string }[];
  alertsTotal: number;
  changes: { at: number; exchange: string; kind: string; subject: string; before: string; after: string; k: string }[];
  /** Changes kept in the history; `atLeast` when counting stopped early. */
  changesTotal: { n: number; atLeast: boolean };
  /** The transfer rules' routes (shown only when there are transfer rules). */
  routes?: { coin: string; from: string; to: string; state: 'open' | 'closed' | 'unknown'; open: string[]; chains: string; k: string }[];
  /** Watched networks first, the rest a page at a time, with their 30 days (absent: not shown). */
  networks?: NetworkSections;
  /** Outages that began or ended and changes, newest first. */
  timeline?: TimelineItem[];
  /** Maintenance windows under way and coming, and the week's announcements naming a watched coin (absent: not shown). */
  notices?: NoticeBanner;
}

/** A row of cells; `k`: its names, which the filter box narrows it by (a row without is always shown). */
interface Row {
  cells: string[];
  k?: string;
}

/** A table (cards on a phone, by its class `t-<name>`). */
function table(name: string, head: string[], rows: Row[], empty: string): string {
  if (rows.length === 0) return `<p class="empty">${h(empty)}</p>`;
  return `<div class="scroll"><table class="t-${name}"><thead><tr>${head.map((x) => `<th>${h(x)}</th>`).join('')}</tr></thead><tbody>
${rows.map((r) => `<tr${r.k === undefined ? '' : ` data-k="${h(r.k)}"`}>${r.cells.join('')}</tr>`).join('\n')}
</tbody></table></div>`;
}

/** The line under a capped table: how many rows it left out, and where to read them all. */
function more(shown: number, total: number, atLeast: boolean, where: string): string {
  if (total <= shown) return '';
  const n = total - shown;
  return `\n<p class="more">… and ${atLeast ? 'at least ' : ''}${n} more (${h(where)}).</p>`;
}

/** A cell of text (escaped); `cls` for a CSS class. A message's cell (`msg`) takes its direction from its text (an exchange's, perhaps right to left). */
function td(text: string, cls?: string): string {
  return `<td${cls ? ` class="${cls}"` : ''}${cls === 'msg' ? ' dir="auto"' : ''}>${h(text)}</td>`;
}

function poll(p: StatusView['exchanges'][number]['polls']['coins']): string {
  if (p === null) return td('not yet', 'muted');
  return p.ok ? td(`ok ${time(Date.parse(p.at))}`, 'ok') : td(`${p.kind ?? 'failed'} ${time(Date.parse(p.at))}`, 'bad');
}

/**
 * The most bytes the page may have. Each upstream text is at most 1,000 characters where it
 * enters, but a page of a thousand rows of them, escaped (`"` is 6 bytes), was 4.7 MB.
 */
export const STATUS_PAGE_MAX_BYTES = 900_000;

/** How long the page shows each message, tried in turn until it fits (null: as stored, at most 1,000 characters). */
const SHOWN_LENGTHS = [null, 300, 120, 40] as const;

/**
 * The status page: plain HTML rendered on the server, every upstream text escaped; its style and
 * script come from /status.css and /status.js (status-assets.ts), so no inline code runs. Within
 * STATUS_PAGE_MAX_BYTES: when it would be larger, every message is shown shorter, and the page
 * says so (/api/v1/state has them whole).
 */
export function renderStatusPage(v: StatusView): string {
  let page = '';
  for (const max of SHOWN_LENGTHS) {
    page = renderView(max === null ? v : shortenedView(v, max), max);
    if (Buffer.byteLength(page, 'utf8') <= STATUS_PAGE_MAX_BYTES) break;
  }
  return page;
}

/** The view with every text that may come from an exchange (messages, summaries, values) in at most `max` characters. */
function shortenedView(v: StatusView, max: number): StatusView {
  const cut = (t: string): string => shortened(t, max);
  const cutOrNull = (t: string | null): string | null => (t === null ? null : cut(t));
  const cards = (list: NonNullable<StatusView['networks']>['watched']) => list.map((c) => ({ ...c, message: cutOrNull(c.message) }));
  return {
    ...v,
    disabled: v.disabled.map((d) => ({ ...d, message: cutOrNull(d.message) })),
    alerts: v.alerts.map((a) => ({ ...a, summary: cut(a.summary) })),
    changes: v.changes.map((c) => ({ ...c, before: cut(c.before), after: cut(c.after) })),
    ...(v.routes !== undefined && { routes: v.routes.map((r) => ({ ...r, chains: cut(r.chains) })) }),
    ...(v.networks !== undefined && { networks: { ...v.networks, watched: cards(v.networks.watched), rest: cards(v.networks.rest) } }),
    ...(v.timeline !== undefined && { timeline: v.timeline.map((i) => ({ ...i, detail: cutOrNull(i.detail) })) }),
    ...(v.notices !== undefined && { notices: { ...v.notices, windows: v.notices.windows.map((w) => ({ ...w, title: cut(w.title) })), announcements: v.notices.announcements.map((a) => ({ ...a, title: cut(a.title) })) } }),
  };
}

function renderView(v: StatusView, shownLength: number | null): string {
  const filter = v.networks?.q ?? '';
  const exchanges = table(
    'exchanges',
    ['exchange', 'health', 'coins poll', 'tickers poll', 'coins', 'networks', 'tickers', 'alerts firing'],
    v.exchanges.map((e) => ({ cells: [td(e.name), td(e.up ? 'up' : 'down', e.up ? 'ok' : 'bad'), poll(e.polls.coins), poll(e.polls.tickers), td(String(e.coins)), td(String(e.networks)), td(String(e.tickers)), td(String(e.alertsFiring))] })),
    'No exchange configured.',
  );
  const disabled = table(
    'disabled',
    ['exchange', 'coin', 'network', 'deposits', 'withdrawals', 'since', 'message'],
    v.disabled.map((d) => ({ k: d.k, cells: [td(d.exchange), td(d.coin), td(d.network), td(d.deposit ? 'open' : 'closed', d.deposit ? 'ok' : 'bad'), td(d.withdraw ? 'open' : 'closed', d.withdraw ? 'ok' : 'bad'), td(d.since === null ? 'before watching began' : time(d.since), d.since === null ? 'muted' : undefined), td(d.message ?? '', 'msg')] })),
    filter === '' ? 'Every network is open for deposits and withdrawals.' : `No closed network matching “${filter}”.`,
  );
  const alerts = table(
    'alerts',
    ['severity', 'alert', 'summary', 'since'],
    v.alerts.map((a) => ({ k: a.k, cells: [td(a.severity, `sev-${a.severity.replace(/[^a-z]/g, '')}`), td(a.alertname), td(a.summary, 'msg'), td(time(a.since))] })),
    filter === '' ? 'No alert is firing.' : `No firing alert matching “${filter}”.`,
  );
  const changes = table(
    'changes',
    ['time', 'exchange', 'change', 'where', 'before', 'after'],
    v.changes.map((c) => ({ k: c.k, cells: [td(time(c.at)), td(c.exchange), td(c.kind), td(c.subject), td(c.before, 'msg'), td(c.after, 'msg')] })),
    filter === '' ? 'No change seen yet.' : `No recent change matching “${filter}”.`,
  );
  const routeState = { open: 'ok', closed: 'bad', unknown: 'muted' } as const;
  const routes =
    v.routes === undefined || v.routes.length === 0
      ? ''
      : `<h2 id="routes">Transfer routes</h2>
${table(
  'routes',
  ['coin', 'from', 'to', 'route', 'open chains', 'chains (withdraw at from / deposit at to)'],
  v.routes.map((r) => ({ k: r.k, cells: [td(r.coin), td(r.from), td(r.to), td(r.state, routeState[r.state]), td(r.open.join(', ') || '—'), td(r.chains, 'msg')] })),
  '',
)}
`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>spotwatch</title>
<link rel="alternate" type="application/atom+xml" title="spotwatch: changes" href="/feed.atom">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/status.css">
</head>
<body>
<header>
<h1>spotwatch</h1>
<p class="meta">Generated ${h(time(v.generatedAt))}; refreshes every 10 s. <a href="/metrics">metrics</a> · <a href="/api/v1/state">state (JSON)</a> · <a href="/api/v1/outages">outages</a> · <a href="/api/v1/availability">availability</a> · <a href="/feed.atom">feed</a></p>
${shownLength === null ? '' : `<p class="meta">Messages are shown in at most ${shownLength} characters to keep this page small; <a href="/api/v1/state">state (JSON)</a> has them whole.</p>\n`}</header>
<main>
${v.notices === undefined ? '' : renderNoticeBanner(v.notices)}${v.networks === undefined ? '' : renderFilter(v.networks)}
<h2 id="exchanges">Exchanges</h2>
${exchanges}${more(v.exchanges.length, v.exchangesTotal, false, 'all of them: /api/v1/state')}
${v.networks === undefined ? '' : renderNetworks(v.networks)}
<h2 id="disabled">Networks with deposits or withdrawals closed (${v.disabledTotal})</h2>
${disabled}${more(v.disabled.length, v.disabledTotal, false, 'newest closures shown; all of them: /api/v1/state')}
${routes}<h2 id="alerts">Alerts firing (${v.alertsTotal})</h2>
${alerts}${more(v.alerts.length, v.alertsTotal, false, 'most severe and newest shown; all of them: /api/v1/alerts')}
${v.timeline === undefined ? '' : `<h2 id="timeline">Timeline: outages and changes</h2>\n${renderTimeline(v.timeline)}\n`}<h2 id="changes">Recent changes</h2>
${changes}${more(v.changes.length, v.changesTotal.n, v.changesTotal.atLeast, 'older ones: /api/v1/changes')}
</main>
<script src="/status.js" defer></script>
</body>
</html>
`;
}
