/**
 * `spotwatch replay DIR`: a recording through step again, from the state it began with, under
 * the configuration and rules given; each change and alert transition printed in order, the
 * same bytes every time. The recording here is made by the recorder itself, from answers as
 * the reference exchange's dialect writes them.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli';
import { silentLogger } from '../../src/lib/logger';
import { Recorder } from '../../src/poll/recording/recorder';
import { initialState, type PollState } from '../../src/poll/state';
import { step, type StepInput } from '../../src/poll/step';
import type { CoinRecord } from '../../src/snapshot/model';
import { coinRecord, tickerRecord } from '../support/records';
import { rulesFrom } from '../support/rules-harness';
import { Sink } from '../support/sink';
import { DEFAULT_SETTINGS } from '../support/poll-settings';

const RULES = `rules:
  - alert: WithdrawDisabled
    state: withdraw_disabled
    severity: critical
  - alert: MaintenanceMessage
    change: withdraw_desc_set
    severity: info
`;
const OTHER_RULES = `rules:
  - alert: WithdrawMessage
    state: withdraw_desc_present
    severity: info
`;

const T0 = Date.UTC(2025, 2, 1, 12, 0, 0);
const usdt = (open: boolean, withdrawDesc: string | null = null): CoinRecord => coinRecord('USDT', [{ network: 'TRX', withdrawEnable: open, withdrawDesc }, { network: 'ETH' }]);
const NEVER_HOLD = new Map([['main', { maxShrink: 1, confirmPolls: 1, confirmMs: 0 }]]);

// Made here, not in beforeAll: the table of bad invocations below names files in it.
const dir = mkdtempSync(join(tmpdir(), 'spotwatch-replay-'));
beforeAll(() => {
  writeFileSync(join(dir, 'rules.yaml'), RULES);
  writeFileSync(join(dir, 'other-rules.yaml'), OTHER_RULES);
  writeFileSync(join(dir, 'c.yaml'), 'exchanges:\n  - name: main\n    base_url: http://127.0.0.1:9\n    guard: { max_shrink: 0.99 }\nrules_file: rules.yaml\n');
  writeFileSync(join(dir, 'binance.yaml'), 'exchanges:\n  - name: main\n    dialect: binance\n    credentials: { api_key: k, api_secret: s }\nrules_file: rules.yaml\n');
  // A replay sends nothing: a signing dialect's exchange without its keys is read as configured.
  writeFileSync(join(dir, 'binance-no-keys.yaml'), 'exchanges:\n  - name: main\n    dialect: binance\nrules_file: rules.yaml\n');
  writeFileSync(join(dir, 'elsewhere.yaml'), 'exchanges:\n  - name: other\n    base_url: http://127.0.0.1:9\nrules_file: rules.yaml\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const stdout = new Sink();
  const stderr = new Sink();
  const code = await main(args, { stdout, stderr, env: {} });
  return { code, out: stdout.text, err: stderr.text };
}

/**
 * A recording of an incident: the daemon (re)starts from a store that had USDT withdrawals
 * closed on TRX (alert firing); they reopen, the same answer comes again, they close with a
 * message, a tickers poll fails, a write fails and the next succeeds.
 */
async function recordIncident(to: string, maxAgeMs = 86_400_000): Promise<void> {
  const settings = { ...DEFAULT_SETTINGS, rules: rulesFrom(RULES), guards: NEVER_HOLD };
  const restored: PollState = step(initialState(settings), { type: 'answer', exchange: 'main', endpoint: 'coins', answer: { records: [usdt(false)], issues: [] } }, T0 - 60_000).state;
  const rec = new Recorder({ dir: to, maxBytes: 1_000_000, maxAgeMs, watched: [{ name: 'main', dialect: 'spot-v3' }] }, silentLogger());
  rec.start(restored, T0);
  const coins = (records: CoinRecord[]): { input: StepInput; body: Buffer } => ({
    input: { type: 'answer', exchange: 'main', endpoint: 'coins', answer: { records, issues: [] } },
    body: Buffer.from(JSON.stringify(records)),
  });
  const written = (error?: string): StepInput => ({ type: 'written', exchange: 'main', error });
  const open = coins([usdt(true)]);
  const closed = coins([usdt(false, 'Wallet maintenance\u202e')]);
  const answer = (c: { input: StepInput; body: Buffer }, at: number, ...after: StepInput[]): void =>
    rec.record(restored, [c.input, ...after], at, { texts: { answers: [{ path: '/api/v3/coins', body: c.body }] } });
  answer(open, T0 + 10_000, written());
  answer(open, T0 + 20_000);
  answer(closed, T0 + 30_000, written('database or disk is full'), written('database or disk is full'));
  rec.record(restored, [{ type: 'failure', exchange: 'main', endpoint: 'tickers', error: 'tickers: HTTP 503' }], T0 + 35_000, { kind: 'http_5xx' });
  const tickers = Buffer.from(JSON.stringify([tickerRecord('BTCUSDT')]));
  rec.record(restored, [{ type: 'answer', exchange: 'main', endpoint: 'tickers', answer: { records: [], issues: [] } }, written(), written()], T0 + 40_000, { texts: { answers: [{ path: '/api/v3/market/ticker/24hr', body: tickers }] } });
  await rec.close();
}

describe('spotwatch replay', () => {
  let rec: string;
  beforeAll(async () => {
    rec = join(dir, 'rec');
    await recordIncident(rec);
  });

  it('prints each change and alert transition in order, from the state the recording began with', async () => {
    const r = await run(['replay', rec, '--config', join(dir, 'c.yaml')]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out.split('\n')).toEqual([
      // Diffed against what the daemon restarted with: withdrawals were closed.
      '2025-03-01T12:00:10.000Z main change withdraw_all_enabled USDT: false -> true',
      '2025-03-01T12:00:10.000Z main change withdraw_enabled USDT TRX: false -> true',
      '2025-03-01T12:00:10.000Z main alert resolved WithdrawDisabled {chain="tron", coin="USDT", kind="withdraw_disabled", network="TRX", severity="critical"}',
      '2025-03-01T12:00:30.000Z main change withdraw_all_disabled USDT: true -> false',
      '2025-03-01T12:00:30.000Z main change withdraw_disabled USDT TRX: true -> false',
      '2025-03-01T12:00:30.000Z main change withdraw_desc_set USDT TRX: null -> "Wallet maintenance\\u202e"',
      '2025-03-01T12:00:30.000Z main alert firing WithdrawDisabled {chain="tron", coin="USDT", kind="withdraw_disabled", network="TRX", severity="critical"}',
      '2025-03-01T12:00:30.000Z main alert firing MaintenanceMessage {chain="tron", coin="USDT", kind="withdraw_desc_set", network="TRX", severity="info"} (change event)',
      // The write's outcome is an input like any other: the store failing, then writable again.
      '2025-03-01T12:00:30.000Z main alert firing StoreFailing {severity="critical"}',
      '2025-03-01T12:00:40.000Z main alert resolved StoreFailing {severity="critical"}',
      '',
    ]);
  });

  it('--json: one object a line, with the fields the README documents; two replays print the same bytes', async () => {
    const first = await run(['replay', rec, '--config', join(dir, 'c.yaml'), '--json']);
    const second = await run(['replay', rec, '--config', join(dir, 'c.yaml'), '--json']);
    expect(second).toEqual(first);
    const lines = first.out.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => `${String(l.type)} ${String(l.kind ?? l.to)}`)).toEqual([
      'change withdraw_all_enabled', 'change withdraw_enabled', 'alert resolved',
      'change withdraw_all_disabled', 'change withdraw_disabled', 'change withdraw_desc_set', 'alert firing', 'alert firing',
      'alert firing', 'alert resolved',
    ]);
    expect(lines[1]).toEqual({ at: '2025-03-01T12:00:10.000Z', exchange: 'main', type: 'change', kind: 'withdraw_enabled', coin: 'USDT', network: 'TRX', before: false, after: true });
    const labels = { alertname: 'WithdrawDisabled', exchange: 'main', severity: 'critical', coin: 'USDT', network: 'TRX', chain: 'tron', kind: 'withdraw_disabled' };
    expect(lines[2]).toEqual({
      at: '2025-03-01T12:00:10.000Z',
      exchange: 'main',
      type: 'alert',
      to: 'resolved',
      alertname: 'WithdrawDisabled',
      labels,
      fingerprint: expect.stringMatching(/^[0-9a-f]{16}$/),
      startsAt: '2025-03-01T11:59:00.000Z',
      endsAt: '2025-03-01T12:00:10.000Z',
      annotations: { summary: 'USDT withdrawals disabled on TRX (main)', description: 'No message from the exchange.', notice: 'none' },
    });
    expect(lines[7]).toMatchObject({ to: 'firing', event: true, alertname: 'MaintenanceMessage', startsAt: '2025-03-01T12:00:30.000Z', endsAt: null });
  });

  it('--rules: the same incident under other rules (the recorded alerts of rules no longer there resolve at once, as after a reload)', async () => {
    const r = await run(['replay', rec, '--config', join(dir, 'c.yaml'), '--rules', join(dir, 'other-rules.yaml')]);
    expect(r.code).toBe(0);
    expect(r.out.split('\n').filter((l) => l.includes(' alert '))).toEqual([
      '2025-03-01T12:00:10.000Z main alert resolved WithdrawDisabled {chain="tron", coin="USDT", kind="withdraw_disabled", network="TRX", severity="critical"}',
      '2025-03-01T12:00:30.000Z main alert firing WithdrawMessage {chain="tron", coin="USDT", kind="withdraw_desc_present", network="TRX", severity="info"}',
      '2025-03-01T12:00:30.000Z main alert firing StoreFailing {severity="critical"}',
      '2025-03-01T12:00:40.000Z main alert resolved StoreFailing {severity="critical"}',
    ]);
  });

  it.each([
    ['a directory that is not there', ['replay', join(dir, 'nothing'), '--config', join(dir, 'c.yaml')], `spotwatch: cannot read the recording ${join(dir, 'nothing')}: no such directory\n`],
    ['a directory without a recording', ['replay', dir, '--config', join(dir, 'c.yaml')], `spotwatch: ${dir} holds no recording (no *.rec.gz segments: record with spotwatch run --record ${dir})\n`],
    ['a configuration without the recorded exchange', ['replay', join(dir, 'rec'), '--config', join(dir, 'elsewhere.yaml')], 'spotwatch: exchange "main" is in the recording but not in the configuration: replay with the configuration it was recorded with\n'],
    ['a configuration that reads it in another dialect', ['replay', join(dir, 'rec'), '--config', join(dir, 'binance.yaml')], 'spotwatch: exchange "main" was recorded speaking spot-v3, the configuration says binance\n'],
    ['a signing dialect without credentials (read, not refused)', ['replay', join(dir, 'rec'), '--config', join(dir, 'binance-no-keys.yaml')], 'spotwatch: exchange "main" was recorded speaking spot-v3, the configuration says binance\n'],
    ['a configuration that is not there', ['replay', join(dir, 'rec'), '--config', join(dir, 'none.yaml')], `${join(dir, 'none.yaml')}: cannot read: no such file\n`],
    ['rules that are not there', ['replay', join(dir, 'rec'), '--config', join(dir, 'c.yaml'), '--rules', join(dir, 'none.yaml')], `${join(dir, 'none.yaml')}: cannot read: no such file\n`],
  ])('%s: one clear line, exit 1, nothing printed', async (_name, args, err) => {
    expect(await run(args)).toEqual({ code: 1, out: '', err });
  });

  it('a recording in several segments replays as one: each goes on from the state the one before reached', async () => {
    const split = join(dir, 'split');
    // A segment lasts a sixteenth of max_age at most: 10 s here, one record each.
    await recordIncident(split, 160_000);
    expect(readdirSync(split).length).toBe(5);
    const whole = await run(['replay', rec, '--config', join(dir, 'c.yaml'), '--json']);
    expect(await run(['replay', split, '--config', join(dir, 'c.yaml'), '--json'])).toEqual(whole);
  });

  it('a segment that is damaged: a note, and the replay goes on from the next segment\'s state', async () => {
    const damaged = join(dir, 'damaged');
    mkdirSync(damaged);
    writeFileSync(join(damaged, '00000001-20250301T115900.000Z.rec.gz'), 'not gzip at all');
    await recordIncident(damaged);
    const r = await run(['replay', damaged, '--config', join(dir, 'c.yaml')]);
    const whole = await run(['replay', rec, '--config', join(dir, 'c.yaml')]);
    expect(r).toEqual({ code: 0, out: whole.out, err: `spotwatch replay: ${join(damaged, '00000001-20250301T115900.000Z.rec.gz')}: damaged: incorrect header check; the replay goes on from the state the next segment begins with\n` });
  });

  it('explains its own usage', async () => {
    const r = await run(['replay']);
    expect(r.code).toBe(2);
    expect(r.err).toContain("replay needs the recording's directory: spotwatch replay DIR");
  });
});
