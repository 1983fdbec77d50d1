import { span } from '../lib/duration';
import { escapeHtml as h } from '../lib/html';
import { barClass, type DayBar } from './status-bars';
import { NETWORK_SORTS, networkKey, type NetworkCard, type NetworkSections } from './status-networks';

/** One entry of the timeline: an outage that began or ended, or a change. */
export interface TimelineItem {
  at: number;
  kind: 'closed' | 'reopened' | 'change';
  where: string;
  /** What the filter reads (the server's and the page's script alike): names and chain, lower case. */
  k: string;
  text: string;
  detail: string | null;
}

export function time(ms: number | null): string {
  return ms === null ? '—' : new Date(ms).toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z');
}

const clock = (ms: number): string => new Date(ms).toISOString().slice(11, 16);
const percent = (r: number | null): string => (r === null ? 'not watched' : `${(Math.floor(r * 10_000) / 100).toFixed(2)} % open`);

function outageLine(o: DayBar['outages'][number]): string {
  const from = o.from === null ? 'before watching began' : time(o.from);
  const to = o.to === null ? 'still closed' : time(o.to);
  const length = o.from !== null && o.to !== null ? ` (${span(o.to - o.from)})` : '';
  return `${o.direction === 'deposit' ? 'deposits' : 'withdrawals'} closed ${from} – ${to}${length}`;
}

/** A day's bar: its title for hover, the day's outages said in words. */
function bar(b: DayBar): string {
  const day = new Date(b.day).toISOString().slice(0, 10);
  const said = [`${day}: ${percent(b.ratio)}`, ...b.outages.map((o) => `${o.direction} closed ${o.from === null && o.began >= b.day ? 'before watching' : clock(Math.max(o.began, b.day))}–${o.to === null ? 'now' : clock(o.to)}`)];
  return `<i class="d ${barClass(b.ratio)}" title="${h(said.join('; '))}"></i>`;
}

const state = (open: boolean): string => `<b class="${open ? 'ok' : 'bad'}">${open ? 'open' : 'closed'}</b>`;

/**
 * The 30 bars of a network. Most networks had no outage in those days, and their bars are the
 * same for every network of an exchange: those are made once per render (`made`).
 */
function bars(list: readonly DayBar[], made: Map<string, string>): string {
  if (list.some((b) => b.outages.length > 0)) return list.map(bar).join('');
  const key = list.map((b) => b.ratio).join(',');
  let html = made.get(key);
  if (html === undefined) {
    html = list.map(bar).join('');
    made.set(key, html);
  }
  return html;
}

/** A network as a card: its name and state, its 30 bars, and (tapped open) its outages of those days. */
function cardOf(c: NetworkCard, made: Map<string, string>): string {
  const outages = new Map<string, DayBar['outages'][number]>();
  for (const b of c.bars) for (const o of b.outages) outages.set(`${o.direction}${o.began}`, o);
  const list = [...outages.values()].reverse();
  const since = c.since === undefined ? '' : `<span class="since">closed since ${h(c.since === null ? 'before watching began' : time(c.since))}</span>`;
  return `<details class="net${c.deposit && c.withdraw ? '' : ' closed'}" data-k="${h(networkKey(c.exchange, c.coin, c.network, c.chain))}"><summary>
<span class="name"><b>${h(c.coin)}</b> ${h(c.network)}${c.chain === null ? '' : ` <span class="chain">${h(c.chain)}</span>`} <span class="ex">${h(c.exchange)}</span></span>
<span class="st">deposits ${state(c.deposit)} · withdrawals ${state(c.withdraw)}</span>
<span class="bars" role="img" aria-label="${h(`last 30 days: ${percent(c.ratio)}`)}">${bars(c.bars, made)}</span><span class="ratio">${h(percent(c.ratio))}</span>
</summary>
<div class="more-info">${since}${c.message === null ? '' : `<p class="msg" dir="auto">${h(c.message)}</p>`}
${list.length === 0 ? '<p class="muted">No outage in the last 30 days.</p>' : `<ul class="outages">${list.map((o) => `<li>${h(outageLine(o))}</li>`).join('')}</ul>`}</div>
</details>`;
}

const link = (s: NetworkSections, change: { sort?: string; page?: number }): string => {
  const p = new URLSearchParams();
  if (s.q !== '') p.set('q', s.q);
  const sort = change.sort ?? s.sort;
  if (sort !== 'status') p.set('sort', sort);
  if (change.page !== undefined && change.page > 1) p.set('page', String(change.page));
  const text = p.toString();
  return text === '' ? '/' : `/?${text}`;
};

/** The filter box and the sort: a plain GET form (works without script; the script filters as one types). */
export function renderFilter(s: NetworkSections): string {
  const labels: Record<string, string> = { status: 'closed first', availability: 'least available', name: 'name' };
  return `<form class="filter" method="get" action="/" role="search">
<input id="q" type="search" name="q" value="${h(s.q)}" placeholder="Filter: coin, network, chain, exchange" aria-label="Filter networks" autocomplete="off">
<select name="sort" aria-label="Sort">${NETWORK_SORTS.map((k) => `<option value="${k}"${k === s.sort ? ' selected' : ''}>${h(labels[k] ?? k)}</option>`).join('')}</select>
<button type="submit">Apply</button>${s.q === '' ? '' : ` <a href="${h(link({ ...s, q: '' }, {}))}">clear</a>`}
</form>`;
}

/** Watched networks and symbols, then the other networks behind "show all". */
export function renderNetworks(s: NetworkSections): string {
  const made = new Map<string, string>();
  const card = (c: NetworkCard): string => cardOf(c, made);
  const filtered = s.q === '' ? '' : ` matching “${h(s.q)}”`;
  const watched = s.watched.length === 0 ? `<p class="empty">No watched network${filtered}. A network is watched when a rule names its coin, network or chain.</p>` : `<div class="cards" id="watched-list">\n${s.watched.map(card).join('\n')}\n</div>`;
  const capped = s.watchedTotal > s.watched.length ? `<p class="more">… and ${s.watchedTotal - s.watched.length} more watched networks: narrow them with the filter.</p>` : '';
  const symbols = s.symbols.length === 0 ? '' : `<h2 id="symbols">Watched symbols (${s.symbolsTotal})</h2>
<p class="legend">The largest 24-hour moves first.</p>
<ul class="symbols" id="symbol-list">${s.symbols.map((x) => `<li data-k="${h(`${x.exchange} ${x.symbol}`.toLowerCase())}"><b>${h(x.symbol)}</b> <span class="ex">${h(x.exchange)}</span> ${h(x.lastPrice)}${x.change === null ? '' : ` <span class="${x.change.startsWith('-') ? 'bad' : 'ok'}">${h(x.change)}</span>`}</li>`).join('')}</ul>${s.symbolsTotal > s.symbols.length ? `<p class="more">… and ${s.symbolsTotal - s.symbols.length} more.</p>` : ''}`;
  const pager = s.pages <= 1 ? '' : `<p class="pager">Page ${s.page} of ${s.pages}${s.page > 1 ? ` · <a href="${h(link(s, { page: s.page - 1 }))}">previous</a>` : ''}${s.page < s.pages ? ` · <a href="${h(link(s, { page: s.page + 1 }))}">next</a>` : ''}</p>`;
  const rest = s.rest.length === 0 ? `<p class="empty">No other network${filtered}.</p>` : `<div class="cards" id="rest-list">\n${s.rest.map(card).join('\n')}\n</div>${pager}`;
  const open = s.q !== '' || s.page > 1 || s.watchedTotal === 0 ? ' open' : '';
  return `<h2 id="watched">Watched networks (${s.watchedTotal})</h2>
<p class="legend">Last 30 days, a bar a day: <i class="d up"></i> open <i class="d dip"></i> closed under 5 % <i class="d part"></i> closed up to half <i class="d down"></i> closed most of the day <i class="d none"></i> not watched. Hover or tap a network for its outages.</p>
${watched}${capped}
${symbols}
<details class="rest" id="rest"${open}><summary><h2 id="others">Other networks (${s.restTotal})</h2> <span class="muted">show all</span></summary>
${rest}
</details>`;
}

export function renderTimeline(items: readonly TimelineItem[]): string {
  if (items.length === 0) return '<p class="empty">Nothing happened yet.</p>';
  return `<ol class="timeline" id="timeline-list">\n${items
    .map((i) => `<li class="${i.kind}" data-k="${h(i.k)}"><time>${h(time(i.at))}</time> <b>${h(i.where)}</b> ${h(i.text)}${i.detail === null ? '' : ` <bdi class="msg">${h(i.detail)}</bdi>`}</li>`)
    .join('\n')}\n</ol>`;
}
