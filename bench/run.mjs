#!/usr/bin/env node
// npm run bench: figures for one poll's processing at exchange scale, as medians and ratios.
// Absolute times on a busy 2-core machine are noisy; the ratios are what to compare.
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const dist = (p) => require(join(process.cwd(), 'dist', p));
const { renderCoinsBody, renderTickersBody } = dist('simulator/index.js');
// The spec's dialect, spot-v3: its parse and its decode (the validation) of each answer.
const { parseJsonKeepingDecimals } = dist('exchange/dialects/spot-v3/parse.js');
const { decodeCoins: validateCoins } = dist('exchange/dialects/spot-v3/coins.js');
const { decodeTickers: validateTickers } = dist('exchange/dialects/spot-v3/tickers.js');
const { applyCoins, applyTickers } = dist('snapshot/merge.js');
const { emptySnapshot } = dist('snapshot/model.js');
const { diff } = dist('snapshot/diff.js');
const { evaluateRules } = dist('rules/evaluate.js');
const { TickerHistory } = dist('rules/history.js');
const { loadRulesFile } = dist('rules/load.js');
const { advance, ActiveAlerts } = dist('alerts/lifecycle.js');
const { Exposition } = dist('metrics/exposition.js');
const { Registry } = require('prom-client');
const { StateStore } = dist('store/store.js');

const RUNS = Number(process.env.BENCH_RUNS ?? 5);

// ccxt, for the side-by-side figure: only where `npm run bench:ccxt` put it (bench/.ccxt),
// never a dependency of the daemon. Its Binance class reads this interface's payloads.
function loadCcxt() {
  try {
    return createRequire(join(process.cwd(), 'bench', '.ccxt', 'package.json'))('ccxt');
  } catch {
    return undefined;
  }
}
const ccxt = loadCcxt();

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function time(fn) {
  const samples = [];
  fn(); // warm-up
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    fn();
    samples.push(performance.now() - t);
  }
  return median(samples);
}

const rules = await loadRulesFile(join(process.cwd(), 'alerts.example.yaml'), {});
if (!rules.ok) throw new Error(rules.problems.join('\n'));

function pollCost(coins) {
  const coinsBody = renderCoinsBody({ coins, seed: 1 });
  const now = Date.UTC(2026, 0, 1);
  const tickersBody = renderTickersBody({ coins, seed: 1, now });
  // Two ticker answers 5 s apart: prices move between polls, as they do on an exchange.
  const tickerBodies = [tickersBody, renderTickersBody({ coins, seed: 1, now: now + 5_000 })];
  let turn = 0;
  const exposition = new Exposition(new Registry());
  const dir = mkdtempSync(join(tmpdir(), 'spotwatch-bench-'));
  const store = StateStore.open(dir);
  const history = new TickerHistory(6 * 60_000);
  const base = applyTickers(applyCoins(emptySnapshot('bench'), validateCoins(JSON.parse(coinsBody)), now - 30_000), validateTickers(JSON.parse(tickersBody)), now - 30_000);
  const alerts = new ActiveAlerts();

  const bare = time(() => {
    JSON.parse(coinsBody);
    JSON.parse(tickersBody);
  });
  const parseValidate = time(() => {
    validateCoins(parseJsonKeepingDecimals(coinsBody, 'coins'));
    validateTickers(parseJsonKeepingDecimals(tickersBody, 'tickers'));
  });
  // What a user would otherwise script: JSON.parse and ccxt's parsers, nothing more (no
  // diff, rules, metrics or state).
  let ccxtParse;
  if (ccxt !== undefined) {
    const binance = new ccxt.binance();
    ccxtParse = time(() => {
      binance.parseCurrenciesCustom(JSON.parse(coinsBody));
      binance.parseTickers(JSON.parse(tickersBody));
    });
  }
  let prev = base;
  // Each step's time within the whole poll (a step run for both answers counts both), for
  // "where the time goes".
  const steps = new Map();
  let current = new Map();
  const step = (name, fn) => {
    const t = performance.now();
    const out = fn();
    current.set(name, (current.get(name) ?? 0) + performance.now() - t);
    return out;
  };
  const full = time(() => {
    const body = tickerBodies[turn++ % 2];
    // As the daemon does: the previous records let unchanged ones be reused as they are.
    const rawCoins = step('parse (exact decimals)', () => parseJsonKeepingDecimals(coinsBody, 'coins'));
    const coinAnswer = step('validate', () => validateCoins(rawCoins, prev.coins));
    let next = step('merge', () => applyCoins(prev, coinAnswer, now));
    const rawTickers = step('parse (exact decimals)', () => parseJsonKeepingDecimals(body, 'tickers'));
    const tickerAnswer = step('validate', () => validateTickers(rawTickers, prev.tickers));
    next = step('merge', () => applyTickers(next, tickerAnswer, now));
    const changes = step('diff', () => diff(prev, next));
    step('rules and alert lifecycle', () => {
      history.record(next.tickers.values(), now);
      for (const domain of ['coins', 'tickers']) {
        const ev = evaluateRules({ rules: rules.rules, domain, snapshot: next, changes, samples: history.symbols, expectedSymbols: new Set(), now, wasActive: (r, e) => alerts.isActive(r, e) });
        alerts.apply(advance(alerts, ev, { exchange: 'bench', rules: new Map(rules.rules.map((r) => [r.id, r])), known: new Set(rules.rules.map((r) => r.id)) }, now));
      }
    });
    step('metrics exposition', () => {
      exposition.update(next, 'coins');
      exposition.update(next, 'tickers');
    });
    step('state written', () => store.transaction(() => {
      if (next.coins !== prev.coins) store.saveSnapshot(next, 'coins');
      store.saveAlerts('bench', alerts.values());
    }));
    prev = next;
    for (const [name, ms] of current) steps.set(name, [...(steps.get(name) ?? []), ms]);
    current = new Map();
  });
  store.close();
  rmSync(dir, { recursive: true, force: true });
  let networks = 0;
  for (const c of base.coins.values()) networks += c.networkList.length;
  return { coins, networks, symbols: base.tickers.size, mb: (coinsBody.length + tickersBody.length) / 1e6, bare, parseValidate, full, ccxtParse, steps };
}

const rows = [pollCost(4000), pollCost(16000)];
console.log(`spotwatch bench — node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB; median of ${RUNS} runs\n`);
console.log('| coins | networks | symbols | body MB | JSON.parse ms | parse+validate ms | ratio | whole poll ms | ratio |');
console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const r of rows) {
  console.log(`| ${r.coins} | ${r.networks} | ${r.symbols} | ${r.mb.toFixed(1)} | ${r.bare.toFixed(1)} | ${r.parseValidate.toFixed(1)} | ${(r.parseValidate / r.bare).toFixed(2)} | ${r.full.toFixed(1)} | ${(r.full / r.bare).toFixed(2)} |`);
}
// Where the time goes: each step's median per poll.
console.log('\n| where the time goes (whole poll) | ' + rows.map((r) => `${r.coins} coins ms | x JSON.parse`).join(' | ') + ' |');
console.log('|---|' + rows.map(() => '---:|---:').join('|') + '|');
for (const name of rows[0].steps.keys()) {
  const cells = rows.map((r) => {
    const ms = median(r.steps.get(name));
    return `${ms.toFixed(1)} | ${(ms / r.bare).toFixed(2)}`;
  });
  console.log(`| ${name} | ${cells.join(' | ')} |`);
}
console.log('');
if (ccxt !== undefined) {
  console.log(`| coins | JSON.parse ms | ccxt ${ccxt.version} binance parsers ms | ratio | spotwatch whole poll ms | ratio | spotwatch / ccxt |`);
  console.log('|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(`| ${r.coins} | ${r.bare.toFixed(1)} | ${r.ccxtParse.toFixed(1)} | ${(r.ccxtParse / r.bare).toFixed(2)} | ${r.full.toFixed(1)} | ${(r.full / r.bare).toFixed(2)} | ${(r.full / r.ccxtParse).toFixed(2)} |`);
  }
} else {
  console.log('ccxt comparison not run: `npm run bench:ccxt` installs ccxt in bench/.ccxt (never a dependency) and runs the bench.');
}
if (process.env.BENCH_CYCLE !== '0') {
  // What users pay: the daemon's whole-process CPU per poll cycle for three upstreams (bench/cycle.mjs).
  const { cycleBench, cycleTable } = await import('./cycle.mjs');
  const sizes = (process.env.CYCLE_SIZES ?? '4000,16000').split(',').map(Number);
  const rows = await cycleBench({ sizes });
  console.log('\ndaemon CPU per poll cycle (coins + tickers; /proc, every thread) against JSON.parse of the same two answers');
  console.log(cycleTable(rows).join('\n'));
}
if (process.env.BENCH_SYSTEM !== '0') {
  const { systemBench } = await import('./system.mjs');
  const sys = await systemBench({ log: () => undefined });
  console.log('\n| system figure | | | |');
  console.log('|---|---|---|---|');
  for (const r of sys) console.log(`| ${r.join(' | ')} |`);
}
if (process.env.BENCH_STORM !== '0') {
  // The storm: every network of 4,000 coins closing at once (bench/storm.mjs; run it alone for
  // other timers: STORM_POLL, STORM_GROUP_WAIT, STORM_GROUP_INTERVAL).
  const { storm, stormRows } = await import('./storm.mjs');
  const r = await storm({ poll: '2s', groupWait: '1s', groupInterval: '2s', settleMs: 4_000 });
  console.log('\n| storm figure | | | |');
  console.log('|---|---|---|---|');
  for (const row of stormRows(r, '2 s polls, group_wait 1 s, group_interval 2 s')) console.log(`| ${row.join(' | ')} |`);
}
if (process.env.BENCH_HISTORY !== '0') {
  // Outages and availability at 8,000 networks and a year of history (bench/history.mjs).
  const { historyBench } = await import('./history.mjs');
  console.log('\n| history figure | | |\n|---|---|---|');
  await historyBench();
}
console.log('\nwhole poll = one coins and one tickers answer: parse, validate, merge, diff, rules (alerts.example.yaml), alert');
console.log('lifecycle, metrics exposition (changed records only), state written to SQLite (as the daemon does).');
