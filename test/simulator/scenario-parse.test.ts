/** Scenario files: every problem reported at once as FILE:LINE:COL: message. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadScenarioFile, parseScenario, ScenarioError, type Scenario } from '../../src/simulator';

function problems(text: string, file = 'bad.yaml'): string[] {
  try {
    parseScenario(text, file);
  } catch (err) {
    if (err instanceof ScenarioError) return err.problems;
    throw err;
  }
  throw new Error('parsed without problems');
}

describe('parseScenario', () => {
  it('reads steps, durations and the loop period, in order of `at`', () => {
    const s = parseScenario([
      'name: outage',
      'repeat: 2m',
      'steps:',
      '  - at: 1m30s',
      '    action: clear_faults',
      '  - at: 30s',
      '    action: fault',
      '    kind: http_500',
      '    status: 503',
      '    endpoint: tickers',
      '    for: 30s',
    ].join('\n'), 'outage.yaml');
    expect(s).toEqual({
      name: 'outage', repeat: 120_000,
      steps: [
        { at: 30_000, where: 'outage.yaml:6:5', action: { action: 'fault', kind: 'http_500', status: 503, endpoint: 'tickers', for: 30_000 } },
        { at: 90_000, where: 'outage.yaml:4:5', action: { action: 'clear_faults' } },
      ],
    } satisfies Scenario);
  });

  it('names a scenario after its file when it has no name, and runs once without repeat', () => {
    expect(parseScenario('steps: []\n', 'dir/quiet.yaml')).toEqual({ name: 'quiet', repeat: null, steps: [] });
  });

  it('keeps decimals as written, even unquoted: 1E-8 stays 1E-8, 0.50 stays 0.50', () => {
    const s = parseScenario([
      'steps:',
      '  - at: 0',
      '    action: set_network',
      '    coin: BTC',
      '    network: BTC',
      '    set: { withdrawIntegerMultiple: 1E-8, withdrawFee: 0.50, withdrawMin: "2" }',
      '  - at: 0',
      '    action: set_network',
      '    coin: ETH',
      '    network: ETH',
      '    set: { withdrawIntegerMultiple: { string: 1 } }',
    ].join('\n'), 'd.yaml');
    expect(s.steps.map((x) => x.action)).toEqual([
      { action: 'set_network', coin: 'BTC', network: 'BTC', set: { withdrawIntegerMultiple: { text: '1E-8', asString: false }, withdrawFee: '0.50', withdrawMin: '2' } },
      { action: 'set_network', coin: 'ETH', network: 'ETH', set: { withdrawIntegerMultiple: { text: '1', asString: true } } },
    ]);
  });

  it('leaves unknown coins to run time: the market depends on --coins and earlier steps', () => {
    expect(parseScenario('steps:\n  - { at: 1s, action: delist_coin, coin: NOTACOIN }\n', 'x.yaml').steps).toHaveLength(1);
  });

  it('reports every problem with its line and column, in file order', () => {
    const text = [
      'name: broken', //                                          1
      'repeat: 2q', //                                            2
      'colour: blue', //                                          3
      'steps:', //                                                4
      '  - at: 5x', //                                            5
      '    action: set_netwrk', //                                6
      '  - at: 1s', //                                            7
      '    action: set_network', //                               8
      '    coin: USDT', //                                        9
      '    network: Tron(TRC20)', //                              10
      '    set: { withdrawFe: "1", minConfirm: 1.5, withdrawIntegerMultiple: 0x1 }', // 11
      '  - at: 2s', //                                            12
      '    action: fault', //                                     13
      '    kind: boom', //                                        14
      '  - at: 3s', //                                            15
      '    action: fault', //                                     16
      '    kind: http_500', //                                    17
      '    bytes: 3', //                                          18
      '    endpoint: coinz', //                                   19
      '  - action: list_coin', //                                 20
      '    coin: abc', //                                         21
      '  - at: 4s', //                                            22
      '    action: move_price', //                                23
      '    symbol: BTCUSDT', //                                   24
      '    percent: -100', //                                     25
      '    over: soon', //                                        26
    ].join('\n');
    expect(problems(text)).toEqual([
      'bad.yaml:2:9: repeat: invalid duration "2q" (use 500ms, 15s, 5m, 4h)',
      'bad.yaml:3:1: colour: unknown field "colour"',
      'bad.yaml:5:9: steps[0].at: invalid duration "5x" (use 500ms, 15s, 5m, 4h)',
      'bad.yaml:6:13: steps[0].action: unknown action "set_netwrk" (expected one of: set_network, set_coin, list_coin, delist_coin, add_network, remove_network, list_symbol, delist_symbol, move_price, set_ticker, fault, clear_faults, schedule_maintenance, start_maintenance, complete_maintenance, cancel_maintenance, reschedule_maintenance, announce)',
      'bad.yaml:11:12: steps[1].set.withdrawFe: unknown field "withdrawFe"',
      'bad.yaml:11:41: steps[1].set.minConfirm: must be an integer (got 1.5)',
      'bad.yaml:11:71: steps[1].set.withdrawIntegerMultiple: must be JSON number text such as "1E-8" or "0.01", or { string: "1" } to send a JSON string (got "0x1")',
      'bad.yaml:14:11: steps[2].kind: unknown kind "boom" (expected one of: http_500, delay, hang, truncate, invalid_json, wrong_shape, html, rate_limit, ban, empty, malformed, huge)',
      'bad.yaml:18:5: steps[3].bytes: unknown field "bytes"',
      'bad.yaml:19:15: steps[3].endpoint: must be one of: coins, tickers, all (got "coinz")',
      'bad.yaml:20:5: steps[4]: missing field "at"',
      'bad.yaml:20:5: steps[4]: missing field "name"',
      'bad.yaml:20:5: steps[4]: missing field "networks"',
      'bad.yaml:21:11: steps[4].coin: must be 1 to 20 uppercase letters or digits',
      'bad.yaml:25:14: steps[5].percent: must be greater than -100 (got -100)',
      'bad.yaml:26:11: steps[5].over: invalid duration "soon" (use 500ms, 15s, 5m, 4h)',
    ]);
  });

  it('refuses a step beyond the loop period', () => {
    expect(problems('repeat: 1m\nsteps:\n  - { at: 1m, action: clear_faults }\n', 'loop.yaml'))
      .toEqual(['loop.yaml:3:11: steps[0].at: 1m is not within the repeat period (steps of a loop run before it starts again)']);
  });

  it.each([
    ['YAML syntax', 'steps: [\n', 'y.yaml:2:1: Flow sequence in block collection must be sufficiently indented and end with a ]'],
    ['a duplicate key', 'steps: []\nsteps: []\n', 'y.yaml:2:1: Map keys must be unique'],
    ['a list at the top', '- at: 1s\n', 'y.yaml:1:1: a scenario is a mapping with `name`, optional `repeat` and a list of `steps`'],
    ['no steps', 'name: x\n', 'y.yaml:1:1: missing field "steps"'],
    ['steps not a list', 'steps: 3\n', 'y.yaml:1:8: steps: must be a list of steps'],
    ['a step that is not a mapping', 'steps:\n  - hello\n', "y.yaml:2:5: steps[0]: a step is a mapping with `at`, `action` and the action's fields"],
    ['a number duration without unit', 'steps:\n  - { at: 30, action: clear_faults }\n', 'y.yaml:2:11: steps[0].at: invalid duration 30: a number needs a unit (use 500ms, 15s, 5m, 4h)'],
    ['a field that is not an identifier, quoted as the config quotes it', '"odd key": 1\nsteps: []\n', 'y.yaml:1:1: ["odd key"]: unknown field "odd key"'],
  ])('reports %s', (_what, text, expected) => {
    expect(problems(text, 'y.yaml')).toEqual([expected]);
  });
});

describe('loadScenarioFile', () => {
  it('reads a file and names it in problems', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scenario-'));
    const path = join(dir, 'bad.yaml');
    try {
      writeFileSync(path, 'steps:\n  - { at: 1s, action: nope }\n');
      await expect(loadScenarioFile(path)).rejects.toThrow(`${path}:2:23: steps[0].action: unknown action "nope"`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads the demo scenario shipped in config/scenarios', async () => {
    const demo = await loadScenarioFile(join(__dirname, '..', '..', 'config', 'scenarios', 'demo.yaml'));
    expect(demo.name).toBe('demo');
    expect(demo.repeat).toBe(240_000);
    expect(demo.steps.length).toBeGreaterThan(10);
  });
});
