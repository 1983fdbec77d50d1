import { ChainTable } from '../../src/snapshot/chains';
import { emptySnapshot, unknownKey, type NetworkRecord, type Snapshot } from '../../src/snapshot/model';
import { judgeTransfer, type TransferSpec } from '../../src/rules/transfer';
import { evaluateTransfer } from '../../src/rules/evaluate-transfer';
import { rulesFrom } from '../support/rules-harness';
import { coinRecord } from '../support/records';

type Net = Partial<NetworkRecord> & Pick<NetworkRecord, 'network'>;
const DIALECT: Record<string, string> = { binance: 'binance', weex: 'spot-v3', mexc: 'mexc' };
const SHIPPED_CHAINS = new ChainTable();
const chainOf = (exchange: string, network: string): string | null => SHIPPED_CHAINS.chainOf(DIALECT[exchange] ?? 'spot-v3', network);

function snap(exchange: string, nets: Net[] | undefined, extra: Partial<Snapshot> = {}): Snapshot {
  const s = emptySnapshot(exchange);
  return { ...s, coinsAt: 1, coins: new Map(nets === undefined ? [] : [['USDT', coinRecord('USDT', nets)]]), ...extra };
}
const spec: TransferSpec = { coin: 'USDT', from: 'binance', to: 'weex', chains: undefined };
const nullFlag = null as unknown as boolean;

describe('judgeTransfer: can USDT move from binance to weex, and by which chain?', () => {
  test.each<[string, Snapshot | undefined, Snapshot | undefined, string, string[], string]>([
    [
      'open on tron',
      snap('binance', [{ network: 'TRX' }, { network: 'BSC', withdrawEnable: false }]),
      snap('weex', [{ network: 'Tron(TRC20)' }, { network: 'BEP20' }]),
      'open', ['tron'],
      'tron: withdraw open at binance, deposit open at weex; bsc: withdraw closed at binance, deposit open at weex',
    ],
    [
      'closed: withdraw shut on one chain, deposit on the other',
      snap('binance', [{ network: 'TRX', withdrawEnable: false }, { network: 'BSC' }]),
      snap('weex', [{ network: 'Tron(TRC20)' }, { network: 'BEP20', depositEnable: false }]),
      'closed', [],
      'tron: withdraw closed at binance, deposit open at weex; bsc: withdraw open at binance, deposit closed at weex',
    ],
    [
      'unknown flag on the only chain not closed is unknown, not closed',
      snap('binance', [{ network: 'TRX', withdrawEnable: nullFlag }, { network: 'BSC', withdrawEnable: false }]),
      snap('weex', [{ network: 'TRC20' }, { network: 'BSC' }]),
      'unknown', [],
      'tron: withdraw unknown at binance, deposit open at weex; bsc: withdraw closed at binance, deposit open at weex',
    ],
    [
      'an unknown flag beside a closed one on the same chain: that chain is closed',
      snap('binance', [{ network: 'TRX', withdrawEnable: nullFlag }]),
      snap('weex', [{ network: 'TRC20', depositEnable: false }]),
      'closed', [],
      'tron: withdraw unknown at binance, deposit closed at weex',
    ],
    [
      'two networks of one chain at one end: open when either is',
      snap('binance', [{ network: 'BTC', withdrawEnable: false }, { network: 'SEGWITBTC' }]),
      snap('weex', [{ network: 'BTC' }]),
      'open', ['bitcoin'],
      'bitcoin: withdraw open at binance, deposit open at weex',
    ],
    [
      'no common chain: closed',
      snap('binance', [{ network: 'TRX' }]),
      snap('weex', [{ network: 'SOL' }]),
      'closed', [],
      'no common chain: binance has tron; weex has solana',
    ],
    [
      'not listed at the destination: closed',
      snap('binance', [{ network: 'TRX' }]),
      snap('weex', undefined),
      'closed', [],
      'no common chain: binance has tron; weex does not list it',
    ],
    [
      'networks without a canonical chain match by their exact id',
      snap('binance', [{ network: 'QUAI' }]),
      snap('weex', [{ network: 'QUAI', depositEnable: false }]),
      'closed', [],
      'QUAI: withdraw open at binance, deposit closed at weex',
    ],
    ['destination never polled: unknown', snap('binance', [{ network: 'TRX' }]), undefined, 'unknown', [], 'USDT at weex: not known yet'],
    ['source not polled yet (coinsAt null): unknown', emptySnapshot('binance'), snap('weex', [{ network: 'TRX' }]), 'unknown', [], 'USDT at binance: not known yet'],
    [
      'coin set aside as unknown at the source: unknown',
      snap('binance', undefined, { unknownCoins: new Set([unknownKey('USDT')]) }),
      snap('weex', [{ network: 'TRX' }]),
      'unknown', [],
      'USDT at binance: not known yet',
    ],
    [
      'network set aside as unknown: its flag is unknown',
      snap('binance', [{ network: 'TRX', withdrawEnable: false }], { unknownCoins: new Set([unknownKey('USDT', 'TRX')]) }),
      snap('weex', [{ network: 'TRX' }]),
      'unknown', [],
      'tron: withdraw unknown at binance, deposit open at weex',
    ],
  ])('%s', (_name, from, to, state, open, description) => {
    const route = judgeTransfer(spec, from, to, chainOf);
    expect({ state: route.state, open: route.open, description: route.description }).toEqual({ state, open, description });
  });

  test('chains: narrows the routes that count', () => {
    const from = snap('binance', [{ network: 'TRX' }, { network: 'BSC', withdrawEnable: false }]);
    const to = snap('weex', [{ network: 'TRC20' }, { network: 'BEP20' }]);
    const route = judgeTransfer({ ...spec, chains: ['bsc'] }, from, to, chainOf);
    expect(route).toMatchObject({ state: 'closed', open: [], description: 'bsc: withdraw closed at binance, deposit open at weex' });
    expect(judgeTransfer({ ...spec, chains: ['solana'] }, from, to, chainOf).description).toBe('no common chain among solana: binance has tron, bsc; weex has tron, bsc');
  });

  test('the alert: labels exchange (= from), to_exchange, coin; only while closed', () => {
    const [rule] = rulesFrom('rules:\n  - alert: TransferRouteClosed\n    transfer: { coin: USDT, from: binance, to: weex }\n');
    if (rule?.condition.type !== 'transfer') throw new Error('not a transfer rule');
    const closed = evaluateTransfer(rule, rule.condition, snap('binance', [{ network: 'TRX', withdrawEnable: false }]), snap('weex', [{ network: 'TRC20' }]), chainOf);
    expect(closed.active.map((i) => [i.entity, i.labels])).toEqual([
      ['binance\u0000USDT\u0000weex', { alertname: 'TransferRouteClosed', exchange: 'binance', severity: 'warning', coin: 'USDT', to_exchange: 'weex', kind: 'transfer' }],
    ]);
    expect(closed.active[0]?.fields.route).toBe('tron: withdraw closed at binance, deposit open at weex');
    expect(evaluateTransfer(rule, rule.condition, snap('binance', [{ network: 'TRX' }]), snap('weex', [{ network: 'TRC20' }]), chainOf).active).toEqual([]);
    expect(evaluateTransfer(rule, rule.condition, snap('binance', [{ network: 'TRX', withdrawEnable: false }]), undefined, chainOf).active).toEqual([]);
  });
});
