/** Applying one validated action to the running exchange. */
import type { FaultBoard } from '../faults/board';
import type { Market } from '../market/model';
import { addNetwork, delistCoin, listCoin, removeNetwork, setCoin, setNetwork, type NetworkIds } from './apply-coins';
import { announce, cancelMaintenance, completeMaintenance, rescheduleMaintenance, scheduleMaintenance, startMaintenance } from './apply-notices';
import { delistSymbol, listSymbol, movePrice, setTicker } from './apply-symbols';
import type { Action } from './schema';

export interface ApplyContext {
  market: Market;
  faults: FaultBoard;
  /** When the action takes effect: now, or a scenario step's due time (a tick may run late). */
  now: number;
  /** The market's seed: a listed pair walks a path of its own, the same on every run. */
  seed: number;
  /** The ids the dialect spoken names a coin's network by (absent: spot-v3, the model's own ids). */
  networkIds?: NetworkIds | undefined;
}

/** Throws ActionError when the action names something that does not exist. */
export function applyAction(ctx: ApplyContext, action: Action): void {
  const { market } = ctx;
  switch (action.action) {
    case 'set_network': return setNetwork(market, action, ctx.networkIds);
    case 'set_coin': return setCoin(market, action);
    case 'list_coin': return listCoin(market, action);
    case 'delist_coin': return delistCoin(market, action);
    case 'add_network': return addNetwork(market, action);
    case 'remove_network': return removeNetwork(market, action, ctx.networkIds);
    case 'list_symbol': return listSymbol(market, action, ctx.now, ctx.seed);
    case 'delist_symbol': return delistSymbol(market, action);
    case 'move_price': return movePrice(market, action, ctx.now);
    case 'set_ticker': return setTicker(market, action);
    case 'fault': {
      const { action: _, ...spec } = action;
      ctx.faults.add(spec, ctx.now);
      return;
    }
    case 'schedule_maintenance': return scheduleMaintenance(market, action, ctx.now);
    case 'start_maintenance': return startMaintenance(market, action, ctx.now);
    case 'complete_maintenance': return completeMaintenance(market, action, ctx.now);
    case 'cancel_maintenance': return cancelMaintenance(market, action, ctx.now);
    case 'reschedule_maintenance': return rescheduleMaintenance(market, action, ctx.now);
    case 'announce': return announce(market, action, ctx.now);
    case 'clear_faults': {
      ctx.faults.clear(action.endpoint);
      return;
    }
  }
}
