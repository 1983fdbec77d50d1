import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import type { Silence } from '../../src/alerts/silence';
import { parseSilence } from '../../src/alerts/silence-request';
import { apiRouter } from '../../src/http/api';
import { compileMatcher } from '../../src/rules/match';

const NOW = Date.UTC(2026, 0, 1);
const END = '2026-01-02T00:00:00Z';

describe('silence patterns from the API', () => {
  let server: Server;
  let url: string;
  const saved: Silence[] = [];

  beforeAll(async () => {
    const app = express();
    app.use('/api/v1', apiRouter({
      alerts: () => [],
      changes: () => [],
      state: () => ({ data: { exchanges: [], routes: [] }, next: null }),
      deadLetters: () => [],
      silences: { list: () => saved, save: (s) => void saved.push(s) },
      now: () => NOW,
    }));
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const post = async (body: unknown): Promise<{ status: number; body: unknown }> => {
    const res = await fetch(`${url}/silences`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: await res.json() };
  };

  it.each([
    [{ matchers: [{ name: 'network', value: '(?=a)b', isRegex: true }], endsAt: END }, 'matchers: network: invalid regular expression /(?=a)b/: lookahead and lookbehind ((?=, (?!, (?<=, (?<!) are not supported: patterns run on RE2, in linear time'],
    [{ matchers: [{ name: 'coin', value: '(x)\\1', isRegex: true, isEqual: false }], endsAt: END }, 'matchers: coin: invalid regular expression /(x)\\1/: backreferences (\\1, \\k<name>) are not supported: patterns run on RE2, in linear time'],
    [{ matchers: { coin: '/[/' }, endsAt: END }, 'matchers: coin: invalid regular expression /[/: missing closing ]: `[`'],
    [{ matchers: { coin: '!' }, endsAt: END }, 'matchers: coin: empty pattern after "!"'],
  ])('answers 400 to a pattern RE2 cannot run: %j', async (body, error) => {
    expect(await post(body)).toEqual({ status: 400, body: { status: 'error', error } });
  });

  it('accepts a catastrophic-for-backtracking regex, which RE2 runs in linear time', async () => {
    const res = await post({ matchers: [{ name: 'network', value: '(a+)+$', isRegex: true }], endsAt: END });
    expect(res.status).toBe(201);
    const silence = saved.at(-1) as Silence;
    expect(silence.matchers).toEqual([{ label: 'network', pattern: '/(a+)+$/' }]);
    const m = compileMatcher('network', '/(a+)+$/');
    expect(m.test(`${'a'.repeat(100_000)}!`)).toBe(false);
  });

  it('matches an Alertmanager equality matcher literally, whatever the value holds', () => {
    const parsed = parseSilence({ matchers: [{ name: 'network', value: 'Tron(TRC20)|*?.', isRegex: false }], endsAt: END }, NOW);
    if (typeof parsed === 'string') throw new Error(parsed);
    const [m] = parsed.matchers.map((x) => compileMatcher(x.label, x.pattern));
    expect(m?.test('Tron(TRC20)|*?.')).toBe(true);
    expect(m?.test('Tron(TRC20)')).toBe(false);
  });
});
