import * as evaluateModule from '../../src/rules/evaluate';
import fc from 'fast-check';
import { evaluateRules } from '../../src/rules/evaluate';
import type { Rule } from '../../src/rules/model';
import { coinRecord, tickerRecord } from '../support/records';
import { coinsSnapshot, gist, Harness, rulesFrom, tickersSnapshot } from '../support/rules-harness';
import type { NetworkRecord } from '../../src/snapshot/model';

const MIN = 60_000;

function usdt(trc: Partial<NetworkRecord>) {
  return coinRecord('USDT', [{ network: 'Tron(TRC20)', ...trc }, { network: 'Ethereum(ERC20)' }]);
}

describe('state rules', () => {
  const rules = rulesFrom(`
rules:
  - alert: WithdrawDisabled
    state: withdraw_disabled
    match: { coin: "USDT|USDC" }
    severity: critical
    labels: { team: desk }
    annotations:
      runbook: "{{coin}} on {{network}}: {{withdraw_desc}}"
`);

  it('fires at once for a matching disabled network, with exact labels and annotations', async () => {
    const h = new Harness(rules);
    const notes = await h.step('coins', coinsSnapshot([usdt({ withdrawEnable: false, withdrawDesc: 'Wallet maintenance' }), coinRecord('BTC', [{ network: 'BTC', withdrawEnable: false }])]), 1000);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({
      status: 'firing',
      startsAt: 1000,
      endsAt: null,
      labels: { alertname: 'WithdrawDisabled', exchange: 'main', severity: 'critical', coin: 'USDT', network: 'Tron(TRC20)', kind: 'withdraw_disabled', team: 'desk' },
      annotations: {
        summary: 'USDT withdrawals disabled on Tron(TRC20) (main)',
        description: 'Exchange message: Wallet maintenance',
        withdraw_desc: 'Wallet maintenance',
        runbook: 'USDT on Tron(TRC20): Wallet maintenance',
      },
    });
    expect(notes[0]?.fingerprint).toMatch(/^[0-9a-f]{16}$/);
  });

  it('fires once while the condition holds, and resolves with the same fingerprint', async () => {
    const h = new Harness(rules);
    const [fired] = await h.step('coins', coinsSnapshot([usdt({ withdrawEnable: false })]), 0);
    expect(await h.step('coins', coinsSnapshot([usdt({ withdrawEnable: false })]), MIN)).toEqual([]);
    const [resolved] = await h.step('coins', coinsSnapshot([usdt({})]), 2 * MIN);
    expect(resolved).toMatchObject({ status: 'resolved', fingerprint: fired?.fingerprint, startsAt: 0, endsAt: 2 * MIN });
    expect(h.alerts.size).toBe(0);
  });

  it('keeps the annotations current: a changed message shows in the next notification', async () => {
    const h = new Harness(rules);
    await h.step('coins', coinsSnapshot([usdt({ withdrawEnable: false, withdrawDesc: 'a' })]), 0);
    await h.step('coins', coinsSnapshot([usdt({ withdrawEnable: false, withdrawDesc: 'b' })]), MIN);
    const [resolved] = await h.step('coins', coinsSnapshot([usdt({})]), 2 * MIN);
    expect(resolved?.annotations.withdraw_desc).toBe('b');
  });

  it('waits `for` before firing, and drops a pending alert silently', async () => {
    const h = new Harness(rulesFrom('rules:\n  - alert: DepositDisabled\n    state: deposit_disabled\n    for: 2m\n'));
    const off = coinsSnapshot([usdt({ depositEnable: false })]);
    expect(await h.step('coins', off, 0)).toEqual([]);
    expect([...h.alerts.values()].map((a) => a.status)).toEqual(['pending']);
    expect(await h.step('coins', coinsSnapshot([usdt({})]), MIN)).toEqual([]);
    expect(h.alerts.size).toBe(0);
    await h.step('coins', off, 2 * MIN);
    expect(await h.step('coins', off, 3 * MIN)).toEqual([]);
    expect(gist(await h.step('coins', off, 4 * MIN))).toEqual(['firing DepositDisabled USDT/Tron(TRC20)']);
  });

  it('keeps firing for keep_firing_for after the condition clears', async () => {
    const h = new Harness(rulesFrom('rules:\n  - alert: W\n    state: withdraw_disabled\n    keep_firing_for: 5m\n'));
    await h.step('coins', coinsSnapshot([usdt({ withdrawEnable: false })]), 0);
    expect(await h.step('coins', coinsSnapshot([usdt({})]), 4 * MIN)).toEqual([]);
    expect(await h.step('coins', coinsSnapshot([usdt({ withdrawEnable: false })]), 4.5 * MIN)).toEqual([]);
    expect(await h.step('coins', coinsSnapshot([usdt({})]), 9 * MIN)).toEqual([]);
    expect(gist(await h.step('coins', coinsSnapshot([usdt({})]), 10 * MIN))).toEqual(['resolved W USDT/Tron(TRC20)']);
  });

  it('repeats a firing alert every repeat_interval', async () => {
    const h = new Harness(rulesFrom('rules:\n  - alert: W\n    state: withdraw_disabled\n    repeat_interval: 1h\n'));
    const off = coinsSnapshot([usdt({ withdrawEnable: false })]);
    expect(await h.step('coins', off, 0)).toHaveLength(1);
    expect(await h.step('coins', off, 59 * MIN)).toEqual([]);
    expect(gist(await h.step('coins', off, 60 * MIN))).toEqual(['firing W USDT/Tron(TRC20)']);
  });

  it.each([
    ['deposit_desc_present', { depositDesc: 'Upgrade' }, 'USDT deposit message on Tron(TRC20) (main): Upgrade'],
    ['withdraw_desc_present', { withdrawDesc: 'Slow' }, 'USDT withdrawal message on Tron(TRC20) (main): Slow'],
  ])('%s fires while a message is present, even with the flag enabled', async (state, over, summary) => {
    const h = new Harness(rulesFrom(`rules:\n  - alert: Msg\n    state: ${state}\n`));
    const [n] = await h.step('coins', coinsSnapshot([usdt(over)]), 0);
    expect(n?.annotations.summary).toBe(summary);
    expect(gist(await h.step('coins', coinsSnapshot([usdt({})]), MIN))).toEqual(['resolved Msg USDT/Tron(TRC20)']);
  });

  it('withdraw_all_disabled is per coin', async () => {
    const h = new Harness(rulesFrom('rules:\n  - alert: AllOff\n    state: withdraw_all_disabled\n'));
    const off = coinRecord('USDT', [{ network: 'A', withdrawEnable: false }, { network: 'B', withdrawEnable: false }]);
    const notes = await h.step('coins', coinsSnapshot([off, coinRecord('BTC', [{ network: 'BTC' }])]), 0);
    expect(notes.map((n) => n.labels)).toEqual([{ alertname: 'AllOff', exchange: 'main', severity: 'warning', coin: 'USDT', kind: 'withdraw_all_disabled' }]);
  });

  it('leaves state alerts alone when only tickers were polled', async () => {
    const h = new Harness(rules);
    await h.step('coins', coinsSnapshot([usdt({ withdrawEnable: false })]), 0);
    expect(await h.step('tickers', tickersSnapshot([tickerRecord('BTCUSDT')]), MIN)).toEqual([]);
    expect(h.alerts.size).toBe(1);
  });

  it('resolves the alerts of a rule that no longer exists', async () => {
    const h = new Harness(rules);
    await h.step('coins', coinsSnapshot([usdt({ withdrawEnable: false })]), 0);
    const other = new Harness(rulesFrom('rules:\n  - alert: X\n    state: deposit_disabled\n'), undefined, h.alerts.values());
    expect(gist(await other.step('coins', coinsSnapshot([usdt({ withdrawEnable: false })]), MIN))).toEqual(['resolved WithdrawDisabled USDT/Tron(TRC20)']);
  });
});

describe('matchers', () => {
  it.each([
    ['USD*', ['USDT', 'USDC']],
    ['USDT|BTC', ['USDT', 'BTC']],
    ['/US[DT]+C?/', ['USDT', 'USDC']],
    ['!USD*', ['BTC', 'ETH']],
    ['?TC', ['BTC']],
  ])('coin %p matches %p', async (pattern, coins) => {
    const h = new Harness(rulesFrom(`rules:\n  - alert: W\n    state: withdraw_disabled\n    match: { coin: "${pattern}" }\n`));
    const all = ['USDT', 'USDC', 'BTC', 'ETH'].map((c) => coinRecord(c, [{ network: 'N', withdrawEnable: false }]));
    expect((await h.step('coins', coinsSnapshot(all), 0)).map((n) => n.labels.coin)).toEqual(coins);
  });
});

describe('change rules', () => {
  it('fire once per matching change, as events with the values before and after', async () => {
    const h = new Harness(rulesFrom(`
rules:
  - alert: MaintenanceMessage
    change: [withdraw_desc_set, withdraw_desc_changed]
    severity: info
`));
    expect(await h.step('coins', coinsSnapshot([usdt({ withdrawFee: '1' })], 0), 0)).toEqual([]);
    // A message appears and the fee changes: the rule listens to the message only.
    const notes = await h.step('coins', coinsSnapshot([usdt({ withdrawDesc: 'Maint', withdrawFee: '2' })], 5000), 5000);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({
      status: 'firing',
      event: true,
      startsAt: 5000,
      endsAt: null,
      labels: { alertname: 'MaintenanceMessage', exchange: 'main', severity: 'info', coin: 'USDT', network: 'Tron(TRC20)', kind: 'withdraw_desc_set' },
      annotations: { summary: 'USDT on Tron(TRC20): withdraw desc set (main)', description: 'withdraw desc set: (none) -> Maint', withdraw_desc: 'Maint' },
    });
    expect(h.alerts.size).toBe(0);
  });
});

describe('ticker rules', () => {
  const at = (m: number) => m * MIN;

  it('change_24h_percent comes from openPrice and lastPrice, not priceChangePercent', async () => {
    const h = new Harness(rulesFrom('rules:\n  - alert: Big24h\n    ticker: change_24h_percent\n    above: 10\n    below: -10\n'));
    const notes = await h.step('tickers', tickersSnapshot([
      tickerRecord('UP', { openPrice: '100', lastPrice: '111', priceChangePercent: '0.11' }),
      tickerRecord('DOWN', { openPrice: '100', lastPrice: '89.5', priceChangePercent: '-0.105' }),
      tickerRecord('FLAT', { openPrice: '100', lastPrice: '105', priceChangePercent: '50' }),
    ]), 0);
    expect(notes.map((n) => [n.labels.symbol, n.value])).toEqual([['UP', 11.000000000000002 ], ['DOWN', -10.5]].map(([s, v]) => [s, expect.closeTo(v as number, 9)]));
    expect(notes[0]?.annotations.summary).toBe('UP moved 11 % in 24 h (main)');
  });

  it('hysteresis: a value hovering at the threshold does not flap', async () => {
    const h = new Harness(rulesFrom('rules:\n  - alert: Wide\n    ticker: spread_bps\n    above: 50\n    hysteresis: 10\n'));
    const spread = (bps: number) => tickersSnapshot([tickerRecord('X', { bidPrice: String(100 - bps / 200), askPrice: String(100 + bps / 200) })]);
    const seq: string[][] = [];
    for (const [i, bps] of [51, 49, 51, 45, 52, 41, 39, 51].entries()) seq.push(gist(await h.step('tickers', spread(bps), at(i))));
    expect(seq).toEqual([['firing Wide X'], [], [], [], [], [], ['resolved Wide X'], ['firing Wide X']]);
  });

  it('move_percent measures from the watcher\'s own samples over the window', async () => {
    const h = new Harness(rulesFrom('rules:\n  - alert: FastMove\n    ticker: move_percent\n    window: 5m\n    above: 3\n    below: -3\n'));
    const price = (p: string) => tickersSnapshot([tickerRecord('BTCUSDT', { lastPrice: p })]);
    expect(await h.step('tickers', price('100'), at(0))).toEqual([]);
    expect(await h.step('tickers', price('101'), at(1))).toEqual([]);
    expect(await h.step('tickers', price('102.5'), at(2))).toEqual([]);
    const [n] = await h.step('tickers', price('103.5'), at(3));
    expect(n?.labels).toEqual({ alertname: 'FastMove', exchange: 'main', severity: 'warning', symbol: 'BTCUSDT', kind: 'move_percent' });
    expect(n?.annotations.summary).toBe('BTCUSDT moved 3.5 % within 300s (main)');
    // Six minutes later the 100 sample has left the window: 103.5 vs 101+ is under 3 %.
    expect(gist(await h.step('tickers', price('103.5'), at(6.5)))).toEqual(['resolved FastMove BTCUSDT']);
  });

  it('stale_for fires when lastPrice, count and volume stop changing', async () => {
    const h = new Harness(rulesFrom('rules:\n  - alert: Stale\n    ticker: stale_for\n    above: 10m\n'));
    const t = (count: number, closeTime: number) => tickersSnapshot([tickerRecord('X', { count, closeTime })]);
    expect(await h.step('tickers', t(1, 1), at(0))).toEqual([]);
    expect(await h.step('tickers', t(1, 2), at(10))).toEqual([]); // closeTime moves, nothing else
    expect(gist(await h.step('tickers', t(1, 3), at(10.5)))).toEqual(['firing Stale X']);
    expect(gist(await h.step('tickers', t(2, 4), at(11)))).toEqual(['resolved Stale X']);
  });

  it('missing fires for an expected symbol absent from the answer', async () => {
    const h = new Harness(rulesFrom('rules:\n  - alert: Missing\n    ticker: missing\n    match: { symbol: "BTCUSDT|ETHUSDT" }\n'), new Set(['SOLUSDT']));
    const notes = await h.step('tickers', tickersSnapshot([tickerRecord('BTCUSDT')]), 0);
    expect(gist(notes)).toEqual(['firing Missing ETHUSDT']);
    expect(gist(await h.step('tickers', tickersSnapshot([tickerRecord('BTCUSDT'), tickerRecord('ETHUSDT')]), MIN))).toEqual(['resolved Missing ETHUSDT']);
  });

  it('missing does not fire for a symbol unknown since the first answer (set aside, no value yet)', async () => {
    const h = new Harness(rulesFrom('rules:\n  - alert: Missing\n    ticker: missing\n    match: { symbol: "BTCUSDT|ETHUSDT" }\n'));
    expect(gist(await h.step('tickers', { ...tickersSnapshot([tickerRecord('BTCUSDT')]), unknownSymbols: new Set(['ETHUSDT']) }, 0))).toEqual([]);
  });

  it.each([
    ['last_price', 'above: 100', { lastPrice: '100.5' }, { lastPrice: '99' }],
    ['last_price', 'below: 50', { lastPrice: '49' }, { lastPrice: '51' }],
    ['volume', 'below: 10', { volume: '5' }, { volume: '20' }],
    ['quote_volume', 'above: 1000000', { quoteVolume: '2000000' }, { quoteVolume: '10' }],
  ])('%s %s', async (measure, bound, hot, cold) => {
    const h = new Harness(rulesFrom(`rules:\n  - alert: T\n    ticker: ${measure}\n    ${bound}\n`));
    expect(gist(await h.step('tickers', tickersSnapshot([tickerRecord('X', hot)]), 0))).toEqual(['firing T X']);
    expect(gist(await h.step('tickers', tickersSnapshot([tickerRecord('X', cold)]), MIN))).toEqual(['resolved T X']);
  });
});

describe('thresholds with hysteresis, against their definition', () => {
  // The definition: beyond `above` (or `below`), widened by the hysteresis while active.
  function reference(value: number, above: number | undefined, below: number | undefined, hysteresis: number, active: boolean): number | undefined {
    const margin = active ? hysteresis : 0;
    if (above !== undefined && value > above - margin) return above;
    if (below !== undefined && value < below + margin) return below;
    return undefined;
  }

  it('holds (and names the threshold) exactly when the definition says, active or not', async () => {
    const level = fc.integer({ min: -20, max: 20 });
    fc.assert(
      fc.property(level, fc.option(level, { nil: undefined }), fc.option(level, { nil: undefined }), fc.constantFrom(0, 1, 5), fc.boolean(), (value, above, below, hysteresis, active) => {
        fc.pre(above !== undefined || below !== undefined);
        fc.pre(above === undefined || below === undefined || below < above); // the loader's own rule
        const yaml = `rules:\n  - alert: Level\n    ticker: last_price\n${above !== undefined ? `    above: ${above}\n` : ''}${below !== undefined ? `    below: ${below}\n` : ''}    hysteresis: ${hysteresis}\n`;
        const [rule] = rulesFrom(yaml);
        let asked = 0;
        const evaluation = evaluateRules({
          rules: [rule as Rule],
          domain: 'tickers',
          snapshot: tickersSnapshot([tickerRecord('X', { lastPrice: String(value) })]),
          changes: [],
          samples: new Map(),
          expectedSymbols: new Set(),
          now: 0,
          wasActive: () => {
            asked++;
            return active;
          },
        });
        const expected = reference(value, above, below, hysteresis, active);
        expect(evaluation.active.map((i) => i.fields.threshold)).toEqual(expected === undefined ? [] : [expected]);
        // Asked when the answer depends on it, and never for a value outside even the widened band.
        if (reference(value, above, below, hysteresis, true) !== reference(value, above, below, hysteresis, false)) expect(asked).toBe(1);
        if (reference(value, above, below, hysteresis, true) === undefined) expect(asked).toBe(0);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('state rules, against their definition', () => {
  it('name exactly the networks where the state holds, poll after poll, as records come and go', async () => {
    const rules = rulesFrom(`rules:
  - alert: WD
    state: withdraw_disabled
  - alert: DD
    state: deposit_disabled
  - alert: WM
    state: withdraw_desc_present
  - alert: DM
    state: deposit_desc_present
`);
    const network = fc.record({
      depositEnable: fc.boolean(),
      withdrawEnable: fc.boolean(),
      depositDesc: fc.constantFrom(null, '', ' ', 'Maintenance'),
      withdrawDesc: fc.constantFrom(null, '', 'Upgrade'),
    });
    const coins = fc.array(fc.tuple(fc.constantFrom('BTC', 'ETH', 'USDT'), fc.array(network, { minLength: 1, maxLength: 3 })), { maxLength: 3 });
    fc.assert(
      fc.property(fc.array(coins, { minLength: 1, maxLength: 4 }), (polls) => {
        let previous: ReturnType<typeof coinsSnapshot> | undefined;
        for (const poll of polls) {
          const unique = [...new Map(poll.map(([c, nets]) => [c, nets])).entries()];
          // An unchanged coin keeps its record object, as merge does.
          const records = unique.map(([c, nets]) => {
            const fresh = coinRecord(c, nets.map((n, i) => ({ network: `N${i}`, ...n })));
            const old = previous?.coins.get(c);
            return old !== undefined && JSON.stringify(old) === JSON.stringify(fresh) ? old : fresh;
          });
          const snapshot = coinsSnapshot(records);
          const got = evaluateRules({ rules, domain: 'coins', snapshot, changes: [], samples: new Map(), expectedSymbols: new Set(), now: 0, wasActive: () => false })
            .active.map((i) => `${i.rule.alert} ${i.labels.coin} ${i.labels.network}`)
            .sort();
          const want = records
            .flatMap((c) => c.networkList.flatMap((n) => [
              ...(!n.withdrawEnable ? [`WD ${c.coin} ${n.network}`] : []),
              ...(!n.depositEnable ? [`DD ${c.coin} ${n.network}`] : []),
              ...(n.withdrawDesc !== null && n.withdrawDesc.trim() !== '' ? [`WM ${c.coin} ${n.network}`] : []),
              ...(n.depositDesc !== null && n.depositDesc.trim() !== '' ? [`DM ${c.coin} ${n.network}`] : []),
            ]))
            .sort();
          expect(got).toEqual(want);
          previous = snapshot;
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('rules with hysteresis on an answer that changed nothing', () => {
  const RULES = `rules:
  - alert: Daily
    ticker: change_24h_percent
    above: 5
    below: -5
    hysteresis: 2
    keep_firing_for: 1m
  - alert: Wide
    ticker: spread_bps
    above: 40
    hysteresis: 10
    for: 1m
    match: { symbol: "X|Z" }
  - alert: Move
    ticker: move_percent
    window: 1m
    above: 3
    below: -3
    match: { symbol: X }
`;

  it('are judged again only when the tickers changed, or when they keep firing for a while or read the samples', async () => {
    const spy = jest.spyOn(evaluateModule, 'evaluateRules');
    try {
      const h = new Harness(rulesFrom(RULES));
      const evaluated = () => spy.mock.calls.splice(0).map((call) => (call[0] as { rules: readonly { alert: string }[] }).rules[0]?.alert ?? '').sort();
      const tickers = tickersSnapshot([tickerRecord('X', { openPrice: '100', lastPrice: '106', bidPrice: '99', askPrice: '101' })]);
      expect(gist(await h.step('tickers', tickers, 0))).toEqual(['firing Daily X']);
      expect(evaluated()).toEqual(['Daily', 'Move', 'Wide']);
      // The same tickers: Wide holds for the same instances (its band kept each alert that held),
      // so only time moves it; Daily keeps firing for a while after it stops holding (judged, to
      // know when it stopped), and Move reads the samples and the time: both every poll.
      expect(gist(await h.step('tickers', tickers, 30_000))).toEqual([]);
      expect(evaluated()).toEqual(['Daily', 'Move']);
      // `for` still runs out.
      expect(gist(await h.step('tickers', tickers, 60_000))).toEqual(['firing Wide X']);
      expect(evaluated()).toEqual(['Daily', 'Move']);
      expect(gist(await h.step('tickers', tickers, 90_000))).toEqual([]);
      expect(evaluated()).toEqual(['Daily', 'Move']);
      // A ticker that changed (equal ones keep their object, and the map stays): every rule again.
      expect(gist(await h.step('tickers', tickersSnapshot([tickerRecord('X', { openPrice: '100', lastPrice: '107', bidPrice: '99', askPrice: '101' })]), 100_000))).toEqual([]);
      expect(evaluated()).toEqual(['Daily', 'Move', 'Wide']);
    } finally {
      spy.mockRestore();
    }
  });

  it('tell exactly what they tell when every answer is a new map, whatever the sequence', async () => {
    const price = fc.constantFrom('93', '94.5', '96', '97.5', '100', '102', '104', '105.5', '107');
    const spread = fc.constantFrom('100', '100.3', '100.45', '100.6');
    const poll = fc.record({ same: fc.boolean(), last: price, ask: spread, dt: fc.constantFrom(10_000, 30_000, 61_000) });
    await fc.assert(
      fc.asyncProperty(fc.array(poll, { minLength: 1, maxLength: 10 }), async (polls) => {
        const reused = new Harness(rulesFrom(RULES));
        const afresh = new Harness(rulesFrom(RULES), new Set(), [], true);
        const make = (p: { last: string; ask: string }) => tickersSnapshot([tickerRecord('X', { openPrice: '100', lastPrice: p.last, bidPrice: '100', askPrice: p.ask }), tickerRecord('Y', { openPrice: '100', lastPrice: '100', bidPrice: '100', askPrice: p.ask })]);
        let map = make(polls[0] as (typeof polls)[number]);
        let now = 0;
        for (const p of polls) {
          // `same`: the answer's bytes were the last one's, and the path hands the very map again.
          if (!p.same) map = make(p);
          const values = tickersSnapshot([...map.tickers.values()].map((t) => ({ ...t })));
          now += p.dt;
          expect(gist(await reused.step('tickers', map, now))).toEqual(gist(await afresh.step('tickers', values, now)));
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('an answer that changed nothing', () => {
  it('is not evaluated again by rules that read only the snapshot, while time still tells: for, stale_for', async () => {
    const spy = jest.spyOn(evaluateModule, 'evaluateRules');
    try {
      const h = new Harness(rulesFrom(`
rules:
  - alert: Off
    state: withdraw_disabled
    for: 2m
  - alert: Wide
    ticker: spread_bps
    above: 50
  - alert: Stale
    ticker: stale_for
    above: 10m
`));
      const coins = coinsSnapshot([usdt({ withdrawEnable: false })]);
      const tickers = tickersSnapshot([tickerRecord('X', { bidPrice: '99', askPrice: '101', lastPrice: '100' })]);
      const ruleOf = (call: unknown[]) => ((call[0] as { rules: { alert: string }[] }).rules[0]?.alert ?? '');
      const evaluated = () => spy.mock.calls.splice(0).map(ruleOf).sort();
      expect(gist(await h.step('coins', coins, 0))).toEqual([]);
      expect(gist(await h.step('tickers', tickers, 0))).toEqual(['firing Wide X']);
      expect(evaluated()).toEqual(['Off', 'Stale', 'Wide']);
      // The very maps again: only the rule that reads the samples and `now` is evaluated; `for` and stale_for still run out.
      expect(gist(await h.step('coins', coins, 2 * MIN))).toEqual(['firing Off USDT/Tron(TRC20)']);
      expect(gist(await h.step('tickers', tickers, 10.5 * MIN))).toEqual(['firing Stale X']);
      expect(evaluated()).toEqual(['Stale']);
      // A new map with the same values (merged from a new answer) is judged afresh.
      expect(gist(await h.step('tickers', tickersSnapshot([tickerRecord('X', { bidPrice: '99.9', askPrice: '100.1', lastPrice: '100' })]), 11 * MIN))).toEqual(['resolved Wide X']);
      expect(evaluated()).toEqual(['Stale', 'Wide']);
    } finally {
      spy.mockRestore();
    }
  });
});
