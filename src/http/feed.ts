import express, { type Router } from 'express';
import { visibleText } from '../lib/visible-text';
import { escapeHtml as x } from '../lib/html';
import { isChangeKind, type ChangeValue } from '../snapshot/changes';
import type { ChangeQuery, StoredChange } from '../storage/port';
import { answerOtherMethods } from '../lib/other-methods';
import { iso, methodNotAllowed, one, parseLimit, singleParams } from './api';
import type { HistorySource } from './history-api';
import type { Announcement, Maintenance } from '../notices/model';
import { selectNotices } from './notices-api';

/** The tagging entity of the feed's and entries' ids (RFC 4151 tag URIs): stable, not a host name. */
const TAG = 'tag:spotwatch,2024';

const PHRASES: Partial<Record<string, string>> = {
  deposit_disabled: 'deposits closed',
  deposit_enabled: 'deposits reopened',
  withdraw_disabled: 'withdrawals closed',
  withdraw_enabled: 'withdrawals reopened',
  deposit_all_disabled: 'deposits closed on every network',
  deposit_all_enabled: 'deposits open again on every network',
  withdraw_all_disabled: 'withdrawals closed on every network',
  withdraw_all_enabled: 'withdrawals open again on every network',
  deposit_desc_set: 'deposit message',
  deposit_desc_changed: 'deposit message changed',
  deposit_desc_cleared: 'deposit message cleared',
  withdraw_desc_set: 'withdrawal message',
  withdraw_desc_changed: 'withdrawal message changed',
  withdraw_desc_cleared: 'withdrawal message cleared',
};

function value(v: ChangeValue): string {
  return v === null ? 'none' : typeof v === 'string' ? v : String(v);
}

/** One change's entry title: where, then what (`main: USDT on TRX: withdrawals closed`). */
export function changeTitle(c: StoredChange): string {
  const where = [c.coin, c.network === undefined ? undefined : `on ${c.network}`, c.symbol].filter((p) => p !== undefined).join(' ');
  const what = PHRASES[c.kind] ?? c.kind.replace(/_/g, ' ');
  return `${c.exchange}: ${where === '' ? '' : `${where}: `}${what}`;
}

/** A stable id: the change's row id and time (a store made afresh starts its ids again, at other times). */
export function entryId(c: StoredChange): string {
  return `${TAG}:change:${c.id}:${c.at}`;
}

/** What the feed's `kind` takes besides a change kind: the entries of one kind of notice. */
export const FEED_NOTICE_KINDS = ['announcement', 'maintenance'] as const;
export type FeedNoticeKind = (typeof FEED_NOTICE_KINDS)[number];

/** One entry of the feed: a change, an announcement or a maintenance window. */
export type FeedItem = { type: 'change'; change: StoredChange } | { type: 'announcement'; announcement: Announcement } | { type: 'maintenance'; window: Maintenance };

/** When an item is, for the order of the feed: a change's time, an announcement's publication, a window's begin. */
function itemAt(item: FeedItem): number {
  return item.type === 'change' ? item.change.at : item.type === 'announcement' ? item.announcement.published : item.window.begins;
}

/** Changes (newest first, as the store gives them) and notices as one list, newest first, at most `limit`. */
export function feedItems(changes: readonly StoredChange[], announcements: readonly Announcement[], windows: readonly Maintenance[], limit: number): FeedItem[] {
  const items: FeedItem[] = [
    ...changes.map((change): FeedItem => ({ type: 'change', change })),
    ...announcements.map((announcement): FeedItem => ({ type: 'announcement', announcement })),
    ...windows.map((window): FeedItem => ({ type: 'maintenance', window })),
  ];
  // Stable: changes of one time keep the store's order, and come before notices of that time.
  return items.sort((a, b) => itemAt(b) - itemAt(a)).slice(0, limit);
}

function feedTitle(filter: { exchange?: string; coin?: string; kind?: string }): string {
  const what = filter.kind === 'announcement' ? 'announcements' : filter.kind === 'maintenance' ? 'maintenance windows' : filter.kind === undefined ? 'changes and notices' : 'changes';
  const kind = filter.kind === undefined || filter.kind === 'announcement' || filter.kind === 'maintenance' ? '' : ` (${filter.kind})`;
  return `spotwatch: ${what}${filter.exchange === undefined ? '' : ` on ${filter.exchange}`}${filter.coin === undefined ? '' : ` of ${filter.coin}`}${kind}`;
}

/** An entry's lines: id, title, updated, its category (the change kind, `announcement` or `maintenance`), a link, a summary. */
function entryLines(item: FeedItem, fallback: string): string[] {
  const at = iso(itemAt(item)) ?? fallback;
  let id: string;
  let title: string;
  let term: string;
  let url: string | null = null;
  let summary: string;
  if (item.type === 'change') {
    const c = item.change;
    id = entryId(c);
    title = changeTitle(c);
    term = c.kind;
    summary = `${c.kind}: ${value(c.before)} → ${value(c.after)} (${c.exchange}${c.coin === undefined ? '' : ` ${c.coin}`}${c.network === undefined ? '' : ` ${c.network}`}${c.symbol === undefined ? '' : ` ${c.symbol}`}, ${at})`;
  } else if (item.type === 'announcement') {
    const a = item.announcement;
    id = `${TAG}:announcement:${encodeURIComponent(a.exchange)}:${encodeURIComponent(a.id)}`;
    title = `${a.exchange}: ${a.title}`;
    term = 'announcement';
    url = a.url;
    summary = `${a.kind} announcement (${a.exchange}, published ${at}${named(a.coins, a.symbols, a.chains)})`;
  } else {
    const w = item.window;
    id = `${TAG}:maintenance:${encodeURIComponent(w.exchange)}:${encodeURIComponent(w.source)}:${encodeURIComponent(w.id)}`;
    title = `${w.exchange}: ${w.title} (maintenance ${w.state})`;
    term = 'maintenance';
    url = w.url;
    summary = `maintenance ${w.state}, ${w.origin}, scope ${w.scope}: begins ${at}, ends ${iso(w.ends) ?? 'unknown'} (${w.exchange}, ${w.source}${named(w.coins, w.symbols, [])})`;
  }
  return [
    '  <entry>',
    `    <id>${x(id)}</id>`,
    `    <title>${x(title)}</title>`,
    `    <updated>${at}</updated>`,
    ...(url === null ? [] : [`    <link rel="alternate" href="${x(url)}"/>`]),
    `    <category term="${x(term)}"/>`,
    `    <summary type="text">${x(summary)}</summary>`,
    '  </entry>',
  ];
}

/** `, coins USDT, BTC; chains tron`: what a notice names, when it names anything. */
function named(coins: readonly string[], symbols: readonly string[], chains: readonly string[]): string {
  const parts = [['coins', coins], ['symbols', symbols], ['chains', chains]] as const;
  return parts.filter(([, list]) => list.length > 0).map(([name, list]) => `; ${name} ${list.join(', ')}`).join('');
}

/**
 * An Atom 1.0 feed (RFC 4287) of changes and notices, newest first (`items`: see feedItems);
 * every upstream text escaped. The feed's `updated` is its newest entry not after `now` (a
 * window scheduled ahead is not an update from the future), else `now`.
 */
export function renderFeed(items: readonly FeedItem[], filter: { exchange?: string; coin?: string; kind?: string }, now: number): string {
  const parts = Object.entries(filter)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${encodeURIComponent(v as string)}`);
  const self = `/feed.atom${parts.length ? `?${parts.join('&')}` : ''}`;
  const latest = items.map(itemAt).find((t) => t <= now);
  const updated = iso(latest ?? now) ?? new Date(0).toISOString();
  const out = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <id>${x(`${TAG}:feed${parts.length ? `:${parts.join(':')}` : ''}`)}</id>`,
    `  <title>${x(feedTitle(filter))}</title>`,
    `  <updated>${updated}</updated>`,
    `  <link rel="self" type="application/atom+xml" href="${x(self)}"/>`,
    '  <author><name>spotwatch</name></author>',
    '  <generator>spotwatch</generator>',
  ];
  for (const item of items) out.push(...entryLines(item, updated));
  out.push('</feed>', '');
  return out.join('\n');
}

const GREEN = '#4c1';
const RED = '#e05d44';
const GREY = '#9f9f9f';
const LABEL = '#555';

/** About how wide Verdana 11px sets a text (shields.io's badges): 7 px a character, 10 px of padding. */
function width(text: string): number {
  return [...text].length * 7 + 10;
}

/**
 * A shields.io-style badge: the network, then deposits and withdrawals each open or closed
 * (or `unknown` when the network is not watched). Names are escaped.
 */
export function renderBadge(coin: string, network: string, state: { deposit: boolean; withdraw: boolean } | undefined): string {
  // Shown as it will be drawn (a control or bidi character as `\u202e`), so the width fits it.
  const label = visibleText(`${coin} ${network}`);
  const cells: { text: string; color: string }[] =
    state === undefined
      ? [{ text: 'unknown', color: GREY }]
      : [
          { text: `deposit ${state.deposit ? 'open' : 'closed'}`, color: state.deposit ? GREEN : RED },
          { text: `withdraw ${state.withdraw ? 'open' : 'closed'}`, color: state.withdraw ? GREEN : RED },
        ];
  const all = [{ text: label, color: LABEL }, ...cells];
  const total = all.reduce((n, c) => n + width(c.text), 0);
  const title = `${label}: ${cells.map((c) => c.text).join(', ')}`;
  let at = 0;
  const rects: string[] = [];
  const texts: string[] = [];
  for (const c of all) {
    const w = width(c.text);
    rects.push(`<rect x="${at}" width="${w}" height="20" fill="${c.color}"/>`);
    const mid = at + w / 2;
    texts.push(`<text x="${mid}" y="15" fill="#010101" fill-opacity=".3">${x(c.text)}</text><text x="${mid}" y="14">${x(c.text)}</text>`);
    at += w;
  }
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${total}" height="20" role="img" aria-label="${x(title)}">`,
    `<title>${x(title)}</title>`,
    '<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>',
    `<clipPath id="r"><rect width="${total}" height="20" rx="3" fill="#fff"/></clipPath>`,
    `<g clip-path="url(#r)">${rects.join('')}<rect width="${total}" height="20" fill="url(#s)"/></g>`,
    `<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">${texts.join('')}</g>`,
    '</svg>',
    '',
  ].join('\n');
}

/** GET /feed.atom and GET /badge/{exchange}/{coin}/{network}.svg: public, like the status page. */
export function feedRouter(source: HistorySource): Router {
  const r = express.Router();
  r.get('/feed.atom', (req, res) => {
    const bad = (error: string): void => {
      res.status(400).json({ status: 'error', error });
    };
    const problem = singleParams(req.query as Record<string, unknown>);
    if (problem !== undefined) return bad(problem);
    const limit = parseLimit(req.query.limit, 100);
    if (typeof limit === 'string') return bad(limit);
    const query: ChangeQuery = { limit };
    const filter: { exchange?: string; coin?: string; kind?: string } = {};
    const kind = one(req.query.kind);
    let noticeKind: FeedNoticeKind | undefined;
    if (kind !== undefined) {
      if (kind === 'announcement' || kind === 'maintenance') noticeKind = kind;
      else if (isChangeKind(kind)) query.kind = kind;
      else return bad('kind: a change kind, announcement or maintenance');
      filter.kind = kind;
    }
    for (const key of ['exchange', 'coin'] as const) {
      const v = one(req.query[key]);
      if (v !== undefined) query[key] = filter[key] = v;
    }
    const changes = noticeKind === undefined ? source.changes(query) : [];
    const notices = kind === undefined || noticeKind !== undefined ? selectNotices(source.notices?.() ?? [], { exchange: filter.exchange, coin: filter.coin, kind: noticeKind }) : { announcements: [], maintenance: [] };
    const items = feedItems(changes, notices.announcements, notices.maintenance, limit);
    res.setHeader('cache-control', 'public, max-age=30');
    res.setHeader('x-content-type-options', 'nosniff');
    res.type('application/atom+xml; charset=utf-8').send(renderFeed(items, filter, source.now()));
  });
  r.get('/badge/:exchange/:coin/:file', (req, res, next) => {
    const { exchange, coin, file } = req.params;
    if (!file.endsWith('.svg') || file.length <= 4) return next();
    const network = file.slice(0, -4);
    const state = source.network(exchange, coin, network);
    res.status(state === undefined ? 404 : 200);
    res.setHeader('cache-control', 'public, max-age=60, stale-while-revalidate=60');
    res.setHeader('x-content-type-options', 'nosniff');
    // An SVG opened on its own is a document: no script, nothing loaded.
    res.setHeader('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'");
    res.type('image/svg+xml; charset=utf-8').send(renderBadge(coin, network, state));
  });
  answerOtherMethods(r, methodNotAllowed);
  return r;
}
