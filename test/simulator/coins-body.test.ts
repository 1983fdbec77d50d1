/** The cached coins body, rebuilt from the previous one after changes, equals a full render. */
import { applyAction } from '../../src/simulator/actions/apply';
import { validateActions } from '../../src/simulator/actions/validate';
import { createFaultBoard } from '../../src/simulator/faults/board';
import { createCoinsBody } from '../../src/simulator/market/coins-body';
import { createMarket } from '../../src/simulator/market/create-market';
import { manualClock } from '../../src/lib/clock';

function apply(market: ReturnType<typeof createMarket>, input: unknown): void {
  const v = validateActions(input);
  if (!v.ok) throw new Error(JSON.stringify(v.issues));
  const faults = createFaultBoard(manualClock(0));
  for (const action of v.value) applyAction({ market, faults, now: 0, seed: 1 }, action);
}

describe('createCoinsBody', () => {
  it('serves the same Buffer until something changes', () => {
    const market = createMarket({ seed: 1, coins: 100 });
    const body = createCoinsBody(market);
    expect(body.body()).toBe(body.body());
  });

  it.each([
    ['a network change in the middle', [{ action: 'set_network', coin: 'USDT', network: 'SOL', set: { withdrawDesc: 'x "quoted" \n' } }]],
    ['a listing at the end', [{ action: 'list_coin', coin: 'NEW', name: 'New', networks: [{ network: 'A' }] }]],
    ['a delisting at the start', [{ action: 'delist_coin', coin: 'BTC' }]],
    ['several changes at once', [
      { action: 'remove_network', coin: 'ETH', network: 'BASE' },
      { action: 'set_coin', coin: 'DOGE', set: { name: 'Doge' } },
      { action: 'add_network', coin: 'ADA', network: 'SOL' },
      { action: 'delist_coin', coin: 'XRP' },
    ]],
  ])('after %s, equals a full render', (_what, actions) => {
    const market = createMarket({ seed: 1, coins: 100 });
    const body = createCoinsBody(market);
    body.body();
    apply(market, actions);
    const full = `[${body.records().join(',')}]`;
    expect(body.body().toString()).toBe(full);
    apply(market, [{ action: 'set_network', coin: 'TRX', network: 'TRX', set: { withdrawFee: '2' } }]);
    expect(body.body().toString()).toBe(`[${body.records().join(',')}]`);
  });
});
