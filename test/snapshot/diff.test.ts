import type { Change } from '../../src/snapshot/changes';
import { sameDecimal } from '../../src/snapshot/decimal-value';
import { diff } from '../../src/snapshot/diff';
import { applyCoins, applyTickers } from '../../src/snapshot/merge';
import { emptySnapshot, type CoinRecord, type NetworkRecord, type Snapshot, type TickerRecord } from '../../src/snapshot/model';
import { coinRecord, tickerRecord } from '../support/records';

const T0 = 1_000;
const T1 = 2_000;

function snap(coins: CoinRecord[], tickers: TickerRecord[] = [], at = T0): Snapshot {
  return applyTickers(applyCoins(emptySnapshot('main'), { records: coins, issues: [] }, at), { records: tickers, issues: [] }, at);
}

/** USDT with its all-flags held at true, so each case shows only the network-level change. */
const usdt = (over: Partial<NetworkRecord> = {}, extra: Array<Partial<NetworkRecord> & { network: string }> = []): CoinRecord => ({
  ...coinRecord('USDT', [{ network: 'Tron(TRC20)', ...over }, { network: 'Ethereum(ERC20)' }, ...extra]),
  depositAllEnable: true,
  withdrawAllEnable: true,
});

function change(kind: Change['kind'], before: Change['before'], after: Change['after'], where: Partial<Change> = {}): Change {
  return { kind, exchange: 'main', before, after, at: T1, ...where };
}

const trc = { coin: 'USDT', network: 'Tron(TRC20)' };

describe('diff', () => {
  it('yields nothing for the first snapshot: it is the baseline', () => {
    expect(diff(emptySnapshot('main'), snap([usdt({ withdrawEnable: false })], [tickerRecord('BTCUSDT')]))).toEqual([]);
  });

  it('yields nothing when nothing changed (fresh objects, same values)', () => {
    expect(diff(snap([usdt()], [tickerRecord('A')]), snap([usdt()], [tickerRecord('A')], T1))).toEqual([]);
  });

  it.each<[string, Partial<NetworkRecord>, Partial<NetworkRecord>, Change[]]>([
    ['deposit_disabled', {}, { depositEnable: false }, [change('deposit_disabled', true, false, trc)]],
    ['deposit_enabled', { depositEnable: false }, {}, [change('deposit_enabled', false, true, trc)]],
    ['withdraw_disabled', {}, { withdrawEnable: false }, [change('withdraw_disabled', true, false, trc)]],
    ['withdraw_enabled', { withdrawEnable: false }, {}, [change('withdraw_enabled', false, true, trc)]],
    ['deposit_desc_set', {}, { depositDesc: 'Upgrade' }, [change('deposit_desc_set', null, 'Upgrade', trc)]],
    ['deposit_desc_changed', { depositDesc: 'Upgrade' }, { depositDesc: 'Upgrade, ETA 2h' }, [change('deposit_desc_changed', 'Upgrade', 'Upgrade, ETA 2h', trc)]],
    ['deposit_desc_cleared', { depositDesc: 'Upgrade' }, { depositDesc: null }, [change('deposit_desc_cleared', 'Upgrade', null, trc)]],
    ['withdraw_desc_set', {}, { withdrawDesc: 'Maint' }, [change('withdraw_desc_set', null, 'Maint', trc)]],
    ['withdraw_desc_changed', { withdrawDesc: 'a' }, { withdrawDesc: 'b' }, [change('withdraw_desc_changed', 'a', 'b', trc)]],
    ['withdraw_desc_cleared (to empty text)', { withdrawDesc: 'a' }, { withdrawDesc: '' }, [change('withdraw_desc_cleared', 'a', null, trc)]],
    ['withdraw_fee_changed', { withdrawFee: '1' }, { withdrawFee: '1.5' }, [change('withdraw_fee_changed', '1', '1.5', trc)]],
    ['withdraw_min_changed', { withdrawMin: '10' }, { withdrawMin: '20' }, [change('withdraw_min_changed', '10', '20', trc)]],
    ['min_confirm_changed', { minConfirm: 20 }, { minConfirm: 30 }, [change('min_confirm_changed', 20, 30, trc)]],
    ['contract_address_changed', { contractAddress: 'T1' }, { contractAddress: 'T2' }, [change('contract_address_changed', 'T1', 'T2', trc)]],
    ['withdraw_tag_changed', { withdrawTag: false }, { withdrawTag: true }, [change('withdraw_tag_changed', false, true, trc)]],
    ['a fee written differently but equal', { withdrawFee: '0.0010' }, { withdrawFee: '1E-3' }, []],
    ['a blank message replaced by null', { depositDesc: '  ' }, { depositDesc: null }, []],
    [
      'a flag and a message in the same poll (two changes)',
      {},
      { withdrawEnable: false, withdrawDesc: 'Wallet maintenance' },
      [change('withdraw_disabled', true, false, trc), change('withdraw_desc_set', null, 'Wallet maintenance', trc)],
    ],
  ])('%s', (_name, before, after, expected) => {
    expect(diff(snap([usdt(before)]), snap([usdt(after)], [], T1))).toEqual(expected);
  });

  it('reports a network flip and the coin-level flag it flips as two facts', () => {
    const before = coinRecord('USDT', [{ network: 'Tron(TRC20)' }, { network: 'Ethereum(ERC20)' }]);
    const after = coinRecord('USDT', [{ network: 'Tron(TRC20)', withdrawEnable: false }, { network: 'Ethereum(ERC20)' }]);
    expect(diff(snap([before]), snap([after], [], T1))).toEqual([
      change('withdraw_all_disabled', true, false, { coin: 'USDT' }),
      change('withdraw_disabled', true, false, trc),
    ]);
  });

  it('reports the coin-level all-flags', () => {
    const all = (over: Partial<CoinRecord>): CoinRecord => ({ ...usdt(), ...over });
    expect(diff(snap([all({})]), snap([all({ depositAllEnable: false, withdrawAllEnable: false })], [], T1))).toEqual([
      change('deposit_all_disabled', true, false, { coin: 'USDT' }),
      change('withdraw_all_disabled', true, false, { coin: 'USDT' }),
    ]);
    expect(diff(snap([all({ depositAllEnable: false, withdrawAllEnable: false })]), snap([all({})], [], T1))).toEqual([
      change('deposit_all_enabled', false, true, { coin: 'USDT' }),
      change('withdraw_all_enabled', false, true, { coin: 'USDT' }),
    ]);
  });

  it('reports networks added and removed, and a moved default', () => {
    const before = coinRecord('USDT', [{ network: 'Tron(TRC20)', isDefault: true }, { network: 'Ethereum(ERC20)', isDefault: false }]);
    const after = coinRecord('USDT', [
      { network: 'Tron(TRC20)', isDefault: false },
      { network: 'SOL', isDefault: true, name: 'Solana' },
    ]);
    expect(diff(snap([before]), snap([after], [], T1))).toEqual([
      change('network_added', null, 'Solana', { coin: 'USDT', network: 'SOL' }),
      change('network_removed', 'Ethereum(ERC20)', null, { coin: 'USDT', network: 'Ethereum(ERC20)' }),
      change('default_network_changed', 'Tron(TRC20)', 'SOL', { coin: 'USDT', network: 'SOL' }),
    ]);
  });

  it('reports a listed and a delisted coin once each, without their networks, alongside other changes', () => {
    const btc = coinRecord('BTC', [{ network: 'BTC' }]);
    const eth = { ...coinRecord('ETH', [{ network: 'ETH' }, { network: 'Arbitrum One' }]), name: 'Ethereum' };
    const next = snap([usdt(), eth], [], T1);
    const prev = snap([btc, usdt({}, [{ network: 'BSC' }])]);
    expect(diff(prev, next)).toEqual([
      change('network_removed', 'BSC', null, { coin: 'USDT', network: 'BSC' }),
      change('coin_listed', null, 'Ethereum', { coin: 'ETH' }),
      change('coin_delisted', 'BTC', null, { coin: 'BTC' }),
    ]);
  });

  it('reports symbols listed and delisted', () => {
    const prev = snap([], [tickerRecord('BTCUSDT'), tickerRecord('OLDUSDT', { lastPrice: '0.5' })]);
    const next = snap([], [tickerRecord('BTCUSDT'), tickerRecord('NEWUSDT', { lastPrice: '2' })], T1);
    expect(diff(prev, next)).toEqual([
      change('symbol_listed', null, '2', { symbol: 'NEWUSDT' }),
      change('symbol_delisted', '0.5', null, { symbol: 'OLDUSDT' }),
    ]);
  });

  it('compares only the part that was polled', () => {
    const prev = snap([usdt()], [tickerRecord('A')]);
    const onlyTickers = applyTickers(prev, { records: [], issues: [] }, T1);
    expect(diff(prev, onlyTickers).map((c) => c.kind)).toEqual(['symbol_delisted']);
  });
});

describe('sameDecimal', () => {
  it.each([
    ['1', '1.0', true],
    ['0.0010', '1E-3', true],
    ['1e-8', '0.00000001', true],
    ['-0', '0', true],
    ['100', '1E2', true],
    ['1', '2', false],
    ['1', null, false],
    ['-1', '1', false],
    ['abc', 'abd', false],
  ])('%p vs %p -> %p', (a, b, same) => {
    expect(sameDecimal(a, b)).toBe(same);
  });
});
