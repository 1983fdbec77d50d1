import { ClosedSince } from '../../src/http/closed-since';
import type { Change } from '../../src/snapshot/changes';

const change = (kind: Change['kind'], coin: string, network: string, at: number): Change => ({ kind, exchange: 'main', coin, network, before: true, after: false, at });

describe('ClosedSince', () => {
  it('reads an exchange from the history once, then follows the accepted changes without reading again', () => {
    const history = [
      { coin: 'USDT', network: 'TRX', kind: 'withdraw_disabled', at: 100 },
      { coin: 'USDT', network: 'TRX', kind: 'deposit_disabled', at: 50 },
    ];
    const loads: string[] = [];
    const since = new ClosedSince((exchange) => (loads.push(exchange), history));
    since.observe('main', [change('withdraw_disabled', 'BTC', 'BTC', 10)]);
    expect(since.get('main', 'BTC', 'BTC')).toBeUndefined();
    expect(since.get('main', 'USDT', 'TRX')).toEqual([50, 100]);
    since.observe('main', [change('withdraw_disabled', 'USDT', 'TRX', 200), change('withdraw_enabled', 'USDT', 'TRX', 300), change('deposit_disabled', 'ETH', 'ERC20', 250)]);
    expect([since.get('main', 'USDT', 'TRX'), since.get('main', 'ETH', 'ERC20'), since.get('main', 'ETH', 'TRX')]).toEqual([[50, 200], [250, null], undefined]);
    expect(loads).toEqual(['main']);
    since.forget('main');
    expect(since.get('main', 'ETH', 'ERC20')).toBeUndefined();
    expect(loads).toEqual(['main', 'main']);
  });
});
