import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_RULES, parseRules } from '../../src/rules/parse';
import { STATES, TICKER_MEASURES } from '../../src/rules/model';
import { CHANGE_KINDS } from '../../src/snapshot/changes';

const ROOT = join(__dirname, '..', '..');

describe('the shipped alerts.example.yaml', () => {
  const result = parseRules(readFileSync(join(ROOT, 'alerts.example.yaml'), 'utf8'), 'alerts.example.yaml', {});

  it('is valid', () => {
    expect(result).toMatchObject({ ok: true });
  });

  it('has a rule for every state, every ticker measure and the change kinds a desk watches', () => {
    if (!result.ok) throw new Error('invalid');
    const states = new Set(result.rules.flatMap((r) => (r.condition.type === 'state' ? [r.condition.state] : [])));
    const measures = new Set(result.rules.flatMap((r) => (r.condition.type === 'ticker' ? [r.condition.measure] : [])));
    const kinds = new Set(result.rules.flatMap((r) => (r.condition.type === 'change' ? r.condition.kinds : [])));
    expect([...states].sort()).toEqual([...STATES].sort());
    expect([...measures].sort()).toEqual([...TICKER_MEASURES].sort());
    // Flag flips are covered by the state rules (firing and resolving); every other change has an event rule.
    const flagFlips = /^(deposit|withdraw)(_all)?_(disabled|enabled)$/;
    expect([...kinds].sort()).toEqual(CHANGE_KINDS.filter((k) => !flagFlips.test(k)).sort());
  });
});

describe('parseRules errors', () => {
  it.each([
    ['no condition', 'rules:\n  - alert: X\n', ['r.yaml:2:5: rules[0]: a rule needs exactly one condition: state, change, ticker, transfer, maintenance, exchange_status or announcement (found 0)']],
    ['two conditions', 'rules:\n  - alert: X\n    state: withdraw_disabled\n    change: coin_listed\n', ['r.yaml:2:5: rules[0]: a rule needs exactly one condition: state, change, ticker, transfer, maintenance, exchange_status or announcement (found 2)']],
    ['an unknown state', 'rules:\n  - alert: X\n    state: withdrawals_off\n', [
      'r.yaml:3:12: rules[0].state: expected one of deposit_disabled, withdraw_disabled, deposit_desc_present, withdraw_desc_present, deposit_all_disabled, withdraw_all_disabled, got "withdrawals_off"',
    ]],
    ['a bad window', 'rules:\n  - alert: X\n    ticker: move_percent\n    window: 5 minutes\n    above: 3\n', [
      'r.yaml:4:13: rules[0].window: invalid duration "5 minutes" (use 500ms, 15s, 5m, 4h)',
    ]],
    ['durations past what their use allows', 'rules:\n  - alert: X\n    ticker: move_percent\n    window: 99999999999d\n    above: 3\n    for: 366d\n  - alert: Y\n    ticker: stale_for\n    above: 400d\n    keep_firing_for: 1y\n', [
      'r.yaml:4:13: rules[0].window: must be at most 30d, got "99999999999d"',
      'r.yaml:6:10: rules[0].for: must be at most 365d, got "366d"',
      'r.yaml:9:12: rules[1].above: must be at most 365d, got "400d"',
      'r.yaml:10:22: rules[1].keep_firing_for: invalid duration "1y" (use 500ms, 15s, 5m, 4h)',
    ]],
    ['a threshold that is not a finite number (it would never be crossed)', 'rules:\n  - alert: X\n    ticker: move_percent\n    window: 5m\n    above: 1e400\n    below: -.inf\n', [
      'r.yaml:5:12: rules[0].above: must be a finite number, got 1e400',
      'r.yaml:6:12: rules[0].below: must be a finite number, got -.inf',
    ]],
    ['move_percent without a window', 'rules:\n  - alert: X\n    ticker: move_percent\n    above: 3\n', ['r.yaml:2:5: rules[0]: ticker: move_percent needs a window (e.g. window: 5m)']],
    ['a threshold on a state rule', 'rules:\n  - alert: X\n    state: deposit_disabled\n    above: 3\n', ['r.yaml:4:12: rules[0].above: above applies only to ticker rules']],
    ['an invalid regex', 'rules:\n  - alert: X\n    state: deposit_disabled\n    match: { coin: "/[/" }\n', [
      'r.yaml:4:20: rules[0].match.coin: invalid regular expression /[/: missing closing ]: `[`',
    ]],
    ['a lookbehind, and a negation of nothing', 'rules:\n  - alert: X\n    state: deposit_disabled\n    match: { coin: "/(?<!W)BTC/", network: "!" }\n', [
      'r.yaml:4:20: rules[0].match.coin: invalid regular expression /(?<!W)BTC/: lookahead and lookbehind ((?=, (?!, (?<=, (?<!) are not supported: patterns run on RE2, in linear time',
      'r.yaml:4:44: rules[0].match.network: empty pattern after "!" (a glob like USD*, alternatives like USDT|USDC, or a regular expression /.../; ! in front negates)',
    ]],
    ['notice rules: within without maintenance: scheduled, unannounced on no closure, an unknown kind and state, a match beyond exchange', 'rules:\n  - alert: A\n    maintenance: ongoing\n    within: 1h\n  - alert: B\n    state: deposit_desc_present\n    unannounced: true\n  - alert: C\n    announcement: [delisting, airdrop]\n  - alert: D\n    exchange_status: closed\n  - alert: E\n    maintenance: scheduled\n    match: { coin: USDT }\n', [
      'r.yaml:4:13: rules[0].within: within applies only to maintenance: scheduled',
      'r.yaml:7:18: rules[1].unannounced: unannounced applies only to closure rules (state: deposit_disabled or withdraw_disabled)',
      'r.yaml:9:31: rules[2].announcement[1]: expected one of listing, delisting, maintenance, other, got "airdrop"',
      'r.yaml:11:22: rules[3].exchange_status[0]: expected one of normal, maintenance, cancel_only, post_only, got "closed"',
      'r.yaml:14:12: rules[4].match: maintenance and exchange_status rules match only exchange',
    ]],
    ['an unknown key, and a second rule\'s problem', 'rules:\n  - alert: X\n    state: deposit_disabled\n    severty: critical\n  - alert: "bad name"\n    state: deposit_disabled\n', [
      'r.yaml:4:5: rules[0]: unknown key "severty" (expected one of: alert, match, severity, for, keep_firing_for, repeat_interval, labels, annotations, state, change, ticker, window, above, below, hysteresis, maintenance, within, exchange_status, announcement, unannounced, transfer)',
      'r.yaml:5:12: rules[1].alert: alert names are letters, digits and _ (they become the alertname label)',
    ]],
  ])('%s', (_name, text, problems) => {
    expect(parseRules(text, 'r.yaml', {})).toEqual({ ok: false, problems });
  });
});

describe('rules file bounds', () => {
  it(`refuses more than ${MAX_RULES} rules at the rules key, without checking each`, () => {
    const text = `# generated\nrules:\n${'  - { alert: A, state: withdraw_disabled, severty: x }\n'.repeat(MAX_RULES + 1)}`;
    expect(parseRules(text, 'r.yaml', {})).toEqual({ ok: false, problems: ['r.yaml:2:1: rules: 10001 rules, at most 10000 are allowed in one file'] });
  });

  it(`accepts ${MAX_RULES} rules`, () => {
    const text = `rules:\n${'  - { alert: A, state: withdraw_disabled, match: { coin: "/C.*/" } }\n'.repeat(MAX_RULES)}`;
    const result = parseRules(text, 'r.yaml', {});
    expect(result.ok && result.rules.length).toBe(MAX_RULES);
  });
});

describe('transfer rules', () => {
  test.each([
    ['from = to', 'rules:\n  - alert: T\n    transfer: { coin: USDT, from: a, to: a }\n', ['r.yaml:3:42: rules[0].transfer.to: to must name another exchange than from']],
    ['a bad chain name', 'rules:\n  - alert: T\n    transfer: { coin: USDT, from: a, to: b, chains: [Tron] }\n', ['r.yaml:3:54: rules[0].transfer.chains[0]: a chain name is lower-case letters, digits and - (tron, avalanche-c)']],
    ['match', 'rules:\n  - alert: T\n    match: { coin: USDT }\n    transfer: { coin: USDT, from: a, to: b }\n', ['r.yaml:3:12: rules[0].match: match does not apply to transfer rules (the rule names its coin and exchanges)']],
  ])('%s', (_name, yaml, problems) => {
    expect(parseRules(yaml, 'r.yaml', {})).toEqual({ ok: false, problems });
  });

  test('a chain matcher is accepted', () => {
    expect(parseRules('rules:\n  - alert: T\n    match: { chain: tron }\n    state: withdraw_disabled\n', 'r.yaml', {}).ok).toBe(true);
  });
});
