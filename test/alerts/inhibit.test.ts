import type { Alert } from '../../src/alerts/alert';
import { compileInhibitRules, DEFAULT_INHIBIT_RULES, InhibitionIndex } from '../../src/alerts/inhibit';

// Work at full size (an 8,000-alert storm, thousands of coins) takes seconds on a loaded machine: no test of this file is bound by its speed.
jest.setTimeout(60_000);

function alert(fingerprint: string, labels: Record<string, string>, status: Alert['status'] = 'firing'): Alert {
  return { fingerprint, ruleId: 'r', entity: fingerprint, labels, annotations: {}, status, activeAt: 0, startsAt: 0, endsAt: null, lastActiveAt: 0, lastNotifiedAt: 0, value: null, event: false };
}

const rules = compileInhibitRules(DEFAULT_INHIBIT_RULES);
const network = (coin: string, exchange = 'main'): Alert => alert(`net-${exchange}-${coin}`, { alertname: 'W', exchange, coin, network: 'N' });
const down = (exchange: string, endpoint = 'coins', status: Alert['status'] = 'firing'): Alert => alert(`down-${exchange}-${endpoint}`, { alertname: 'ExchangeDown', exchange, endpoint }, status);
const delisted = (coin: string): Alert => alert(`delisted-${coin}`, { alertname: 'Listing', exchange: 'main', coin, kind: 'coin_delisted' });

describe('InhibitionIndex', () => {
  it.each([
    ['no source', [], network('BTC'), false],
    ['its exchange is down (coins)', [down('main')], network('BTC'), true],
    ['another exchange is down', [down('other')], network('BTC'), false],
    ['its exchange is down, but on tickers (network alerts need coins)', [down('main', 'tickers')], network('BTC'), false],
    ['a pending source does not inhibit', [down('main', 'coins', 'pending')], network('BTC'), false],
    ['its coin was delisted', [delisted('LUNA')], network('LUNA'), true],
    ['another coin was delisted', [delisted('LUNA')], network('BTC'), false],
    ['an alert does not inhibit itself', [delisted('LUNA')], alert('delisted-LUNA', { ...delisted('LUNA').labels, network: 'N' }), false],
    ['the same source twice is still itself', [delisted('LUNA'), delisted('LUNA')], alert('delisted-LUNA', { ...delisted('LUNA').labels, network: 'N' }), false],
    ['another source with the same key inhibits', [delisted('LUNA'), alert('other', delisted('LUNA').labels)], alert('delisted-LUNA', { ...delisted('LUNA').labels, network: 'N' }), true],
  ])('%s', (_name, sources, target, expected) => {
    expect(new InhibitionIndex(sources, rules).inhibits(target)).toBe(expected);
  });

  /** A user's rule: maintenance on an exchange mutes warnings and infos of the same exchange and coin. */
  const maintenance = compileInhibitRules([{ source_match: { alertname: 'Maint', exchange: 'main|backup' }, target_match: { severity: '/warning|info/' }, equal: ['exchange', 'coin'] }]);
  const maint = (labels: Record<string, string>, status: Alert['status'] = 'firing'): Alert => alert('maint', { alertname: 'Maint', ...labels }, status);
  const target = (labels: Record<string, string>): Alert => alert('t', { alertname: 'W', ...labels });

  it.each([
    ['same exchange and coin, a warning', [maint({ exchange: 'main', coin: 'BTC' })], target({ severity: 'warning', exchange: 'main', coin: 'BTC' }), true],
    ['same exchange and coin, an info', [maint({ exchange: 'backup', coin: 'BTC' })], target({ severity: 'info', exchange: 'backup', coin: 'BTC' }), true],
    ['a critical target is not matched', [maint({ exchange: 'main', coin: 'BTC' })], target({ severity: 'critical', exchange: 'main', coin: 'BTC' }), false],
    ['another coin', [maint({ exchange: 'main', coin: 'BTC' })], target({ severity: 'warning', exchange: 'main', coin: 'ETH' }), false],
    ['a source on an exchange the rule does not name', [maint({ exchange: 'other', coin: 'BTC' })], target({ severity: 'warning', exchange: 'other', coin: 'BTC' }), false],
    ['a resolved source', [maint({ exchange: 'main', coin: 'BTC' }, 'resolved')], target({ severity: 'warning', exchange: 'main', coin: 'BTC' }), false],
    ['an equal label missing on both sides is equal', [maint({ exchange: 'main' })], target({ severity: 'warning', exchange: 'main' }), true],
    ['an equal label missing on the source only is not', [maint({ exchange: 'main' })], target({ severity: 'warning', exchange: 'main', coin: 'BTC' }), false],
    ['one of several sources matches', [maint({ exchange: 'main', coin: 'ETH' }), maint({ exchange: 'backup', coin: 'BTC' })], target({ severity: 'info', exchange: 'backup', coin: 'BTC' }), true],
  ])('a user rule: %s', (_name, sources, alert, expected) => {
    expect(new InhibitionIndex(sources, maintenance).inhibits(alert)).toBe(expected);
  });

  it('signs the same sources the same whatever their order, and other sources otherwise', () => {
    const a = maint({ exchange: 'main', coin: 'BTC' });
    const b = { ...maint({ exchange: 'backup', coin: 'ETH' }), fingerprint: 'maint-2' };
    const signature = (sources: Alert[]): string => new InhibitionIndex(sources, maintenance).signature();
    expect(signature([a, b])).toBe(signature([b, a]));
    expect(signature([a])).not.toBe(signature([a, b]));
    expect(signature([])).toBe(signature([maint({ exchange: 'main', coin: 'BTC' }, 'resolved')]));
  });

  it('a missing equal label and an empty one are different values', () => {
    const source = alert('s', { alertname: 'ExchangeDown', endpoint: 'coins', exchange: '' });
    const target = alert('t', { network: 'N' });
    expect(new InhibitionIndex([source], rules).inhibits(target)).toBe(false);
    expect(new InhibitionIndex([source], rules).inhibits(alert('t', { network: 'N', exchange: '' }))).toBe(true);
  });

  it('judges 8,000 alerts against 8,000 sources with work linear in the alerts (each matcher once per alert and rule)', () => {
    let tests = 0;
    const counted = rules.map((r) => {
      const wrap = (ms: typeof r.source) => ms.map((m) => ({ ...m, test: (v: string | undefined) => (tests++, m.test(v)) }));
      return { ...r, source: wrap(r.source), target: wrap(r.target) };
    });
    const alerts = Array.from({ length: 8000 }, (_, i) => network(`C${i}`));
    const index = new InhibitionIndex([...alerts, down('other')], counted);
    const muted = alerts.filter((a) => index.inhibits(a)).length;
    expect(muted).toBe(0);
    // Sources: at most every source matcher of every rule per source (8,001 x 5); targets: at
    // most every target matcher per alert (8,000 x 3). Alerts x sources would be 64 million.
    expect(tests).toBeLessThanOrEqual(8001 * 5 + 8000 * 3);
  });
});
