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

  const ALL_EMPTY = 'matchers: at least one matcher must not match the empty string (a silence whose matchers all match every value would mute every alert)';

  it.each([
    // Alertmanager refuses these (silence.go validateSilence): they would mute every alert, critical ones too
    [{ matchers: [{ name: 'alertname', value: '.*', isRegex: true }], endsAt: END }, ALL_EMPTY],
    [{ matchers: [{ name: 'alertname', value: '.*', isRegex: true }, { name: 'severity', value: 'a?', isRegex: true }], endsAt: END }, ALL_EMPTY],
    [{ matchers: { alertname: '*' }, endsAt: END }, ALL_EMPTY],
    [{ matchers: { coin: 'BTC|' }, endsAt: END }, ALL_EMPTY],
    [{ matchers: {}, endsAt: END }, 'matchers: at least one is required'],
    // README: an empty pattern is an error; Alertmanager's `value: ""` would be the pattern of exactly the empty value
    [{ matchers: [{ name: 'coin', value: '', isRegex: false }, { name: 'exchange', value: 'main', isRegex: false }], endsAt: END }, 'matchers: coin: empty value (an empty pattern is an error)'],
    [{ matchers: [{ name: 'coin', value: '', isRegex: true, isEqual: false }], endsAt: END }, 'matchers: coin: empty value (an empty pattern is an error)'],
  ])('answers 400 to a silence that would mute everything: %j', async (body, error) => {
    const before = saved.length;
    expect(await post(body)).toEqual({ status: 400, body: { status: 'error', error } });
    expect(saved.length).toBe(before);
  });

  it.each([
    // One matcher that does not match the empty string is enough; a negated one never counts as matching it (as in Alertmanager)
    [{ matchers: [{ name: 'alertname', value: '.*', isRegex: true }, { name: 'coin', value: 'USDT', isRegex: false }], endsAt: END }, [{ label: 'alertname', pattern: '/.*/' }, { label: 'coin', pattern: '/USDT/' }]],
    [{ matchers: [{ name: 'coin', value: 'USDT', isRegex: false, isEqual: false }], endsAt: END }, [{ label: 'coin', pattern: '!/USDT/' }]],
    [{ matchers: { alertname: '*', network: '?*' }, endsAt: END }, [{ label: 'alertname', pattern: '*' }, { label: 'network', pattern: '?*' }]],
  ])('accepts a silence with a matcher that does not match the empty string: %j', async (body, matchers) => {
    expect((await post(body)).status).toBe(201);
    expect((saved.at(-1) as Silence).matchers).toEqual(matchers);
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
