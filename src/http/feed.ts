import express, { type Router } from 'express';
import { escapeXml as x } from './xml';
import { isChangeKind, type ChangeValue } from '../snapshot/changes';
import type { ChangeQuery, StoredChange } from '../store/store';
import { answerOtherMethods } from '../lib/other-methods';
import { iso, methodNotAllowed, one, parseLimit, singleParams } from './api';
import type { HistorySource } from './history';

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

/** An Atom 1.0 feed (RFC 4287) of changes, newest first; every upstream text escaped. */
export function renderFeed(changes: readonly StoredChange[], filter: { exchange?: string; coin?: string; kind?: string }, now: number): string {
  const parts = Object.entries(filter)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${encodeURIComponent(v as string)}`);
  const self = `/feed.atom${parts.length ? `?${parts.join('&')}` : ''}`;
  const updated = iso(changes[0]?.at ?? now) ?? new Date(0).toISOString();
  const out = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <id>${x(`${TAG}:feed${parts.length ? `:${parts.join(':')}` : ''}`)}</id>`,
    `  <title>${x(`spotwatch: changes${filter.exchange === undefined ? '' : ` on ${filter.exchange}`}${filter.coin === undefined ? '' : ` of ${filter.coin}`}${filter.kind === undefined ? '' : ` (${filter.kind})`}`)}</title>`,
    `  <updated>${updated}</updated>`,
    `  <link rel="self" type="application/atom+xml" href="${x(self)}"/>`,
    '  <author><name>spotwatch</name></author>',
    '  <generator>spotwatch</generator>',
  ];
  for (const c of changes) {
    const at = iso(c.at) ?? updated;
    const summary = `${c.kind}: ${value(c.before)} → ${value(c.after)} (${c.exchange}${c.coin === undefined ? '' : ` ${c.coin}`}${c.network === undefined ? '' : ` ${c.network}`}${c.symbol === undefined ? '' : ` ${c.symbol}`}, ${at})`;
    out.push(
      '  <entry>',
      `    <id>${x(entryId(c))}</id>`,
      `    <title>${x(changeTitle(c))}</title>`,
      `    <updated>${at}</updated>`,
      `    <category term="${x(c.kind)}"/>`,
      `    <summary type="text">${x(summary)}</summary>`,
      '  </entry>',
    );
  }
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
  const label = `${coin} ${network}`;
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
    if (kind !== undefined) {
      if (!isChangeKind(kind)) return bad('kind: not a change kind');
      query.kind = filter.kind = kind;
    }
    for (const key of ['exchange', 'coin'] as const) {
      const v = one(req.query[key]);
      if (v !== undefined) query[key] = filter[key] = v;
    }
    res.setHeader('cache-control', 'public, max-age=30');
    res.setHeader('x-content-type-options', 'nosniff');
    res.type('application/atom+xml; charset=utf-8').send(renderFeed(source.changes(query), filter, source.now()));
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
