import { parseConfig } from '../../src/config/load';
import { exchangeNoticeSources, noticeSourceNames, stepSettings } from '../../src/runtime/settings';

function config(text: string) {
  const r = parseConfig(text, 'c.yaml', {}, '/');
  if (!r.ok) throw new Error(r.problems.join('\n'));
  return r.config;
}

describe('stepSettings: what step decides by, for the daemon and for replay alike', () => {
  it('takes each exchange\'s notices.explains_for (the default where it says nothing; none where notices are off)', () => {
    const c = config(`exchanges:
  - { name: a, base_url: "http://127.0.0.1:1", notices: { explains_for: 1d } }
  - { name: b, base_url: "http://127.0.0.1:2" }
  - { name: c, base_url: "http://127.0.0.1:3", notices: false }
`);
    expect([...(stepSettings(c, []).explainsFor ?? [])]).toEqual([['a', 86_400_000], ['b', 14 * 86_400_000]]);
  });

  it('takes flap detection and the guard per exchange', () => {
    const c = config(`exchanges:
  - { name: a, base_url: "http://127.0.0.1:1", flapping: { window: 11, high_percent: 30, low_percent: 10 }, guard: { max_shrink: 0.5 } }
`);
    const s = stepSettings(c, []);
    expect(s.flapping?.get('a')).toEqual({ enabled: true, window: 11, highPercent: 30, lowPercent: 10 });
    expect(s.guards.get('a')).toEqual({ maxShrink: 0.5, confirmPolls: 5, confirmMs: 120_000 });
  });
});

describe('the notice sources of an exchange: one answer for the reader and for the metrics', () => {
  it('reads the embedded exchange\'s Statuspage when none is configured, and a configured one elsewhere', () => {
    const c = config(`exchanges:
  - { name: embedded }
  - { name: remote, dialect: kucoin, base_url: "http://127.0.0.1:1" }
  - { name: paged, dialect: kucoin, base_url: "http://127.0.0.1:2", notices: { statuspage: "https://status.example" } }
  - { name: off, dialect: kucoin, notices: false }
`);
    expect([...noticeSourceNames(c)]).toEqual([
      ['embedded', ['statuspage']],
      ['remote', ['kucoin-status', 'kucoin-announcements']],
      ['paged', ['kucoin-status', 'kucoin-announcements', 'statuspage']],
      ['off', []],
    ]);
    const [embedded, , paged] = c.exchanges;
    expect(exchangeNoticeSources(embedded!, 'http://127.0.0.1:9').map((s) => s.baseUrl)).toEqual(['http://127.0.0.1:9/-/statuspage']);
    expect(exchangeNoticeSources(paged!, 'http://127.0.0.1:2').at(-1)?.baseUrl).toBe('https://status.example');
  });
});
