import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { serveState, type ServedState, type StatusState } from '../support/status-states';
import { checkHtml, type VnuMessage } from '../support/vnu';

jest.setTimeout(180_000);

/**
 * Every HTML page the HTTP server serves (the status page is the only one: the rest is JSON,
 * text, Atom, SVG, CSS and script) through the W3C Nu Html Checker, in every state: empty, calm,
 * notices present, a storm, the storm filtered (`?q=usdt`), sorted by name, on page 2 of the
 * other networks, and a filter that matches nothing.
 */
const PAGES: { name: string; state: StatusState; path: string }[] = [
  { name: 'empty', state: 'empty', path: '/' },
  { name: 'calm', state: 'calm', path: '/' },
  { name: 'notices', state: 'notices', path: '/' },
  { name: 'storm', state: 'storm', path: '/' },
  { name: 'storm-filtered', state: 'storm', path: '/?q=usdt' },
  { name: 'storm-by-name', state: 'storm', path: '/?sort=name&page=2' },
  { name: 'storm-no-match', state: 'storm', path: '/?q=zzzz-no-such-coin' },
];

/** What the checker must find in a page with the faults the status page had (so an empty report means a real check). */
const CANARY = '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>x</title></head><body><span aria-label="bars">x\u001b</span></body></html>\n';

let dir: string;
let report: { version: string; messages: VnuMessage[] };
const served = new Map<StatusState, ServedState>();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'spotwatch-html-'));
  const files: string[] = [];
  for (const p of PAGES) {
    if (!served.has(p.state)) served.set(p.state, await serveState(p.state));
    const res = await fetch(`${served.get(p.state)!.url}${p.path}`);
    expect([res.status, res.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    const file = join(dir, `${p.name}.html`);
    writeFileSync(file, await res.text());
    files.push(file);
  }
  writeFileSync(join(dir, 'canary.html'), CANARY);
  files.push(join(dir, 'canary.html'));
  report = await checkHtml(files);
});

afterAll(async () => {
  for (const s of served.values()) await s.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

const of = (name: string): VnuMessage[] => report.messages.filter((m) => basename(decodeURIComponent(m.url)) === `${name}.html`);

it('checks for real: the canary page (aria-label on a span, an ESC) has exactly its two errors', () => {
  expect(report.version).toMatch(/^\d+\.\d+\.\d+/);
  expect(of('canary').map((m) => [m.type, m.message])).toEqual([
    ['error', expect.stringMatching(/^The “aria-label” attribute must not be specified on any “span” element unless/)],
    ['error', 'Forbidden code point U+001b.'],
  ]);
});

it.each(PAGES.map((p) => [p.name, p.path]))('the status page (%s, %s) is valid HTML: no error, no warning', (name) => {
  expect(of(name).map((m) => `${m.type}${m.subType ? `/${m.subType}` : ''} line ${m.lastLine ?? '?'}: ${m.message} [${m.extract ?? ''}]`)).toEqual([]);
});
