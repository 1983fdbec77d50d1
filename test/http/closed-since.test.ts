import { ClosedSince, closedAt, closedMessage, outageMessage } from '../../src/http/closed-since';
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

describe('closedAt and closedMessage: a closed network as the status page, the API and the bot show it', () => {
  const net = (depositEnable: boolean, withdrawEnable: boolean) => ({ depositEnable, withdrawEnable, depositDesc: 'deposits paused', withdrawDesc: 'wallet upgrade' });

  it.each([
    ['both closed: the later closure', net(false, false), [50, 100] as const, 100],
    ['deposits closed: their closure only', net(false, true), [50, 100] as const, 50],
    ['withdrawals closed, before the kept history', net(true, false), [50, null] as const, null],
    ['no closure known', net(false, false), undefined, null],
  ])('%s', (_, n, at, expected) => {
    expect(closedAt(n, at)).toBe(expected);
  });

  it('words the closed directions, withdrawals first, and null when the exchange said nothing', () => {
    expect(closedMessage(net(false, false))).toBe('wallet upgrade / deposits paused');
    expect(closedMessage(net(true, false))).toBe('wallet upgrade');
    expect(closedMessage({ ...net(false, true), depositDesc: '' })).toBeNull();
  });

  it('words an outage by every message given while it lasted, and null when there was none', () => {
    expect(outageMessage({ messages: ['wallet upgrade', 'node sync'] })).toBe('wallet upgrade / node sync');
    expect(outageMessage({ messages: [] })).toBeNull();
  });
});
