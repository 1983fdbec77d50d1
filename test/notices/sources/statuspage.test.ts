import { noticeSources } from '../../../src/notices/registry';
import { statuspage } from '../../../src/notices/sources/statuspage';
import { failure, recorded } from './recorded';

const SOURCE = statuspage('https://status.huobigroup.com');

describe('statuspage: recorded answers', () => {
  it('is added to any exchange that names one, on its own host; gate, mexc and spot-v3 have none else', () => {
    expect(noticeSources('gate', { unofficial: false, baseUrlSet: false, statuspage: 'https://status.example' }).map((s) => [s.name, s.baseUrl])).toEqual([['statuspage', 'https://status.example']]);
    expect(['gate', 'mexc', 'spot-v3'].map((d) => noticeSources(d, { unofficial: true, baseUrlSet: false }))).toEqual([[], [], []]);
  });

  it('decodes the docs example exactly: a planned maintenance of a deposit component is funding, a market data incident other, each naming its components', () => {
    expect(SOURCE.plan({ open: [] })).toEqual([{ path: '/api/v2/summary.json', weight: 1 }]);
    expect(SOURCE.decode('/api/v2/summary.json', recorded('statuspage', 'summary.json'), 0)).toEqual({
      maintenance: [
        { id: 'k7g299zl765l', title: 'Schedule maintenance', state: 'scheduled', begins: 1581724800000, ends: 1581728400000, origin: 'planned', scope: 'funding', coins: [], symbols: [], url: 'http://stspg.io/md4t4ym7nytd', source: 'statuspage', named: ['Deposit And Withdraw - Deposit'] },
        { id: 'rclfxz2g21ly', title: 'Market data is delayed', state: 'ongoing', begins: 1581390901906, ends: null, origin: 'incident', scope: 'other', coins: [], symbols: [], url: 'http://stspg.io/pkvbwp8jppf9', source: 'statuspage', named: ['Market data'] },
      ],
    });
  });

  it.each<[string, string[], string]>([
    ['only funding components', ['USDT deposits and withdrawals', 'ETH Wallet'], 'funding'],
    ['funding beside the API', ['Deposit', 'API'], 'funding'],
    ['funding and trading together (an exchange-wide upgrade)', ['Trading', 'Deposits and withdrawals', 'API', 'Website and apps'], 'exchange'],
    ['spot trading', ['Spot Trading', 'Order placement'], 'trading'],
    ['the API', ['REST API', 'WebSocket'], 'api'],
    ['the website', ['Website and apps'], 'other'],
    ['a coin\'s own component (its wallet)', ['Bitcoin (BTC)'], 'funding'],
    ['no component', [], 'exchange'],
  ])('reads the scope from what the components are: %s', (_what, names, scope) => {
    const components = names.map((name, i) => ({ id: `c${i}`, name }));
    const body = { scheduled_maintenances: [{ id: 'm', name: 'Upgrade', status: 'scheduled', scheduled_for: '2020-02-15T00:00:00Z', scheduled_until: null, incident_updates: [], components }] };
    expect(SOURCE.decode('', JSON.stringify(body), 0).maintenance?.map((w) => [w.scope, w.named])).toEqual([[scope, names]]);
  });

  it('reads lists sent as null as empty, and each documented state', () => {
    expect(SOURCE.decode('', '{"incidents":null,"scheduled_maintenances":null}', 0)).toEqual({ maintenance: [] });
    const m = (status: string) => ({ id: 'm', name: 'n', status, scheduled_for: '2020-02-15T00:00:00Z', scheduled_until: null, incident_updates: null, components: null });
    const i = (status: string) => ({ id: 'i', name: 'n', status, created_at: '2020-02-15T00:00:00+08:00', resolved_at: '2020-02-15T01:00:00Z', incident_updates: [] });
    const states = (body: unknown) => (SOURCE.decode('', JSON.stringify(body), 0).maintenance ?? []).map((w) => [w.state, w.begins, w.ends]);
    expect(states({ scheduled_maintenances: ['scheduled', 'in_progress', 'in progress', 'verifying', 'completed'].map(m) })).toEqual(
      ['scheduled', 'ongoing', 'ongoing', 'ongoing', 'completed'].map((s) => [s, 1581724800000, null]),
    );
    expect(states({ incidents: ['investigating', 'identified', 'monitoring', 'resolved', 'postmortem'].map(i) })).toEqual(
      ['ongoing', 'ongoing', 'ongoing', 'completed', 'completed'].map((s) => [s, 1581696000000, 1581728400000]),
    );
  });

  it('fails on a wrong shape and an unknown state', () => {
    expect(failure(SOURCE, '', '{"incidents":{}}')).toEqual(['schema', 'statuspage']);
    expect(failure(SOURCE, '', '{"incidents":[{"id":"i","name":"n","status":"gone","created_at":"2020-02-15T00:00:00Z"}]}')).toEqual(['schema', 'statuspage']);
  });
});
