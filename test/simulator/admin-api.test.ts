/** The admin API under /-/sim/: the same actions as scenario steps, live. */
import { COINS_PATH, TICKER_PATH } from '../../src/exchange/dialects/spot-v3/wire';
import { parseScenario } from '../../src/simulator';
import { get, getJson, postJson, startTestSimulator, type TestSimulator } from '../support/simulator';

type Json = Record<string, unknown>;

let sim: TestSimulator;
beforeEach(async () => {
  sim = await startTestSimulator({ coins: 60 });
});
afterEach(() => sim.close());

const network = async (coin: string, name: string): Promise<Json> => {
  const coins = await getJson<Json[]>(sim.url, COINS_PATH);
  const found = coins.find((c) => c.coin === coin);
  return ((found?.networkList as Json[] | undefined) ?? []).find((n) => n.network === name) ?? {};
};

describe('POST /-/sim/actions', () => {
  it('applies one action object and says how many were applied', async () => {
    const answer = await postJson(sim.url, '/-/sim/actions', {
      action: 'set_network', coin: 'USDT', network: 'Tron(TRC20)', set: { withdrawEnable: false, withdrawDesc: 'TRC20 wallet maintenance' },
    });
    expect(answer).toEqual({ status: 200, json: { applied: 1 } });
    expect(await network('USDT', 'Tron(TRC20)')).toMatchObject({ withdrawEnable: false, withdrawDesc: 'TRC20 wallet maintenance' });
  });

  it('applies an array in order', async () => {
    const answer = await postJson(sim.url, '/-/sim/actions', [
      { action: 'set_network', coin: 'BTC', network: 'BTC', set: { depositDesc: 'first' } },
      { action: 'set_network', coin: 'BTC', network: 'BTC', set: { depositDesc: 'second' } },
      { action: 'fault', kind: 'empty', endpoint: 'tickers', count: 1 },
    ]);
    expect(answer).toEqual({ status: 200, json: { applied: 3 } });
    expect((await network('BTC', 'BTC')).depositDesc).toBe('second');
    expect((await get(sim.url, TICKER_PATH)).text).toBe('[]');
  });

  it('refuses invalid input with every problem and its path, applying nothing', async () => {
    const answer = await postJson(sim.url, '/-/sim/actions', [
      { action: 'set_network', coin: 'BTC', network: 'BTC', set: { depositDesc: 'ok' } },
      { action: 'set_network', coin: 'BTC', network: 'BTC', set: { withdrawFe: '1', minConfirm: -1 } },
      { action: 'teleport' },
    ]);
    expect(answer.status).toBe(400);
    expect((answer.json as Json).problems).toEqual([
      '[1].set.minConfirm: must be at least 0 (got -1)',
      '[1].set.withdrawFe: unknown field "withdrawFe"',
      '[2].action: unknown action "teleport" (expected one of: set_network, set_coin, list_coin, delist_coin, add_network, remove_network, list_symbol, delist_symbol, move_price, set_ticker, fault, clear_faults, schedule_maintenance, start_maintenance, complete_maintenance, cancel_maintenance, reschedule_maintenance, announce)',
    ]);
    expect((await network('BTC', 'BTC')).depositDesc).toBeNull();
  });

  it('refuses an action on something that does not exist, telling how many were applied before', async () => {
    const answer = await postJson(sim.url, '/-/sim/actions', [
      { action: 'set_network', coin: 'BTC', network: 'BTC', set: { depositDesc: 'applied' } },
      { action: 'set_network', coin: 'NOPE', network: 'X', set: { depositDesc: 'x' } },
    ]);
    expect(answer).toEqual({ status: 400, json: { error: '[1]: unknown coin "NOPE"', problems: ['[1]: unknown coin "NOPE"'], applied: 1 } });
    expect((await network('BTC', 'BTC')).depositDesc).toBe('applied');
  });

  it('refuses a body that is not JSON, and one over 1 MiB', async () => {
    const bad = await fetch(`${sim.url}/-/sim/actions`, { method: 'POST', body: '{"action":' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: 'body is not valid JSON (send one action object or an array of them)' });
    const big = await fetch(`${sim.url}/-/sim/actions`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'set_coin', coin: 'BTC', set: { name: 'x'.repeat(1_100_000) } }),
    });
    expect(big.status).toBe(413);
  });

  it('reads JSON whatever the content type (curl -d sends form encoding)', async () => {
    const res = await fetch(`${sim.url}/-/sim/actions`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: JSON.stringify({ action: 'set_coin', coin: 'BTC', set: { name: 'Bitcoin Core' } }),
    });
    expect(await res.json()).toEqual({ applied: 1 });
  });

  it('refuses an empty body', async () => {
    const res = await fetch(`${sim.url}/-/sim/actions`, { method: 'POST' });
    expect(res.status).toBe(400);
  });
});

describe('POST and DELETE /-/sim/faults', () => {
  it('adds a fault, lists it in the state, and clears it', async () => {
    const added = await postJson(sim.url, '/-/sim/faults', { kind: 'http_500', status: 503, endpoint: 'tickers', for: '30s' });
    expect(added).toEqual({ status: 200, json: { applied: 1, id: 1 } });
    expect((await get(sim.url, TICKER_PATH)).status).toBe(503);
    const state = await getJson<Json>(sim.url, '/-/sim/state');
    expect(state.faults).toEqual([{ id: 1, kind: 'http_500', endpoint: 'tickers', remaining: null, expiresInMs: 30_000 }]);
    const cleared = await fetch(`${sim.url}/-/sim/faults`, { method: 'DELETE' });
    expect(await cleared.json()).toEqual({ cleared: 1 });
    expect((await get(sim.url, TICKER_PATH)).status).toBe(200);
  });

  it('clears one endpoint with ?endpoint=, and refuses an unknown one', async () => {
    await postJson(sim.url, '/-/sim/faults', { kind: 'empty', endpoint: 'coins' });
    await postJson(sim.url, '/-/sim/faults', { kind: 'empty', endpoint: 'tickers' });
    expect(await (await fetch(`${sim.url}/-/sim/faults?endpoint=coins`, { method: 'DELETE' })).json()).toEqual({ cleared: 1 });
    expect((await fetch(`${sim.url}/-/sim/faults?endpoint=nope`, { method: 'DELETE' })).status).toBe(400);
  });

  it('refuses an unknown fault kind or a field of another kind', async () => {
    const answer = await postJson(sim.url, '/-/sim/faults', { kind: 'http_500', ms: 5 });
    expect(answer).toEqual({ status: 400, json: { error: 'ms: unknown field "ms"', problems: ['ms: unknown field "ms"'], applied: 0 } });
    const unknown = await postJson(sim.url, '/-/sim/faults', { kind: 'meltdown' });
    expect((unknown.json as Json).problems).toEqual([
      'kind: unknown kind "meltdown" (expected one of: http_500, delay, hang, truncate, invalid_json, wrong_shape, html, rate_limit, ban, empty, malformed, huge)',
    ]);
  });
});

describe('GET /-/sim/state', () => {
  it('counts coins, networks, symbols and active faults', async () => {
    const state = await getJson<Json>(sim.url, '/-/sim/state');
    expect(state).toMatchObject({ coins: 60, faults: [], scenario: null });
    expect(state.networks).toBeGreaterThan(60);
    expect(state.symbols).toBeGreaterThan(40);
  });

  it('reports the scenario and its elapsed time on the injected clock', async () => {
    const scenario = parseScenario('name: t\nrepeat: 1m\nsteps:\n  - { at: 10s, action: clear_faults }\n', 't.yaml');
    const withScenario = await startTestSimulator({ coins: 60, scenario });
    try {
      withScenario.clock.advance(75_000);
      expect((await getJson<Json>(withScenario.url, '/-/sim/state')).scenario).toEqual({
        name: 't', elapsedMs: 75_000, cycle: 1, stepsApplied: 2, steps: 1, repeat: 60_000,
      });
    } finally {
      await withScenario.close();
    }
  });
});

describe('routing', () => {
  it('answers an unknown admin route with 404', async () => {
    const res = await fetch(`${sim.url}/-/sim/nothing`);
    expect([res.status, await res.json()]).toEqual([404, { error: 'no admin route GET /-/sim/nothing' }]);
  });

  it.each([
    ['/-/sim/actions', 'GET', 'POST, OPTIONS'],
    ['/-/sim/faults', 'GET', 'POST, DELETE, OPTIONS'],
    ['/-/sim/state', 'POST', 'GET, HEAD, OPTIONS'],
    ['/-/sim/reset-limits', 'GET', 'POST, OPTIONS'],
  ])('answers %s asked with %s with 405 and Allow: %s', async (path, method, allow) => {
    const res = await fetch(`${sim.url}${path}`, { method });
    expect([res.status, res.headers.get('allow'), await res.json()]).toEqual([405, allow, { error: `no admin route ${method} ${path} (allowed: ${allow})` }]);
  });
});
