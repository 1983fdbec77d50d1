import type { Change } from '../../src/snapshot/changes';
import { emptySnapshot, type Snapshot } from '../../src/snapshot/model';
import type { StateStore } from '../../src/store/store';
import { coinRecord } from './records';

/** Scripted closures of one exchange, `main`, for the outage and availability tests. */
export const T0 = Date.UTC(2026, 0, 1);
export const H = 3_600_000;

export const change = (kind: Change['kind'], coin: string, network: string, at: number, after: Change['after'] = null): Change => ({ kind, exchange: 'main', coin, network, before: null, after, at });

export function snapshot(at: number, ethWithdraw = false): Snapshot {
  return {
    ...emptySnapshot('main'),
    coinsAt: at,
    coins: new Map([
      ['USDT', coinRecord('USDT', [{ network: 'TRX' }, { network: 'ETH', withdrawEnable: ethWithdraw, withdrawDesc: ethWithdraw ? null : 'wallet upgrade' }])],
      ['BTC', coinRecord('BTC', [{ network: 'BTC' }])],
    ]),
  };
}

/** The scripted history: TRX withdrawals closed 1h-3h with two messages, BTC deposits closed from 5h, ETH withdrawals (closed before watching began) reopened at 6h. */
export function script(store: StateStore): void {
  store.saveSnapshot(snapshot(T0), 'coins');
  store.appendChanges([change('withdraw_disabled', 'USDT', 'TRX', T0 + H, false), change('withdraw_desc_set', 'USDT', 'TRX', T0 + H, 'maintenance <b>&')]);
  store.appendChanges([change('withdraw_desc_changed', 'USDT', 'TRX', T0 + 2 * H, 'maintenance extended')]);
  store.appendChanges([change('withdraw_enabled', 'USDT', 'TRX', T0 + 3 * H, true)]);
  store.appendChanges([change('deposit_disabled', 'BTC', 'BTC', T0 + 5 * H, false)]);
  store.appendChanges([change('withdraw_enabled', 'USDT', 'ETH', T0 + 6 * H, true)]);
}

/** The exchange as the script leaves it at 9h: ETH withdrawals reopened, BTC deposits closed (with `depositDesc` when given). */
export function scriptedNow(depositDesc?: string): Snapshot {
  const s = snapshot(T0 + 9 * H, true);
  const btc = s.coins.get('BTC');
  if (btc === undefined) throw new Error('the script has BTC');
  const closed = btc.networkList.map((n) => ({ ...n, depositEnable: false, ...(depositDesc !== undefined && { depositDesc }) }));
  return { ...s, coins: new Map([...s.coins, ['BTC', { ...btc, networkList: closed }]]) };
}
