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
// The poll path as the engine runs it: the spec's dialect decodes, step decides, Persist writes.
const { dialects } = dist('exchange/dialects/registry.js');
const { initialState, exchangeOf } = dist('poll/state.js');
const { ChainTable } = dist('snapshot/chains.js');
const { PollPath } = dist('poll/path.js');
const { Persist } = dist('poll/persist.js');
const { loadRulesFile } = dist('config/rules-file.js');
const { renderNetworks, renderTickers } = dist('metrics/render.js');
const { StateStore } = dist('store/store.js');
const decode = dialects.named('spot-v3').decode;

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

// The daemon's settings for one spot-v3 exchange: the example rules, the default guard, the shipped chains.
function benchSettings(rules) {
  const chains = new ChainTable();
  return { rules, guards: new Map(), expectedSymbols: new Map(), chainOf: (_exchange, network) => chains.chainOf('spot-v3', network) };
}

function pollCost(coins) {
  const coinsBody = renderCoinsBody({ coins, seed: 1 });
  const now = Date.UTC(2026, 0, 1);
  const tickersBody = renderTickersBody({ coins, seed: 1, now });
  // Two ticker answers 5 s apart: prices move between polls, as they do on an exchange.
  const tickerBodies = [tickersBody, renderTickersBody({ coins, seed: 1, now: now + 5_000 })];
  let turn = 0;
  const dir = mkdtempSync(join(tmpdir(), 'spotwatch-bench-'));
  const store = StateStore.open(dir);
  const path = new PollPath(initialState(benchSettings(rules.rules)), new Persist(store));
  const keep = () => true;
  // The first answers: what the polls measured follow.
  path.decide({ type: 'answer', exchange: 'bench', endpoint: 'coins', answer: decode.coins(coinsBody) }, now - 30_000);
  path.decide({ type: 'answer', exchange: 'bench', endpoint: 'tickers', answer: decode.tickers(tickersBody) }, now - 30_000);

  const bare = time(() => {
    JSON.parse(coinsBody);
    JSON.parse(tickersBody);
  });
  const parseValidate = time(() => {
    decode.coins(coinsBody);
    decode.tickers(tickersBody);
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
  // Each part's time within the whole poll (one run for both answers counts both), for "where the time goes".
  const steps = new Map();
  let current = new Map();
  const part = (name, fn) => {
    const t = performance.now();
    const out = fn();
    current.set(name, (current.get(name) ?? 0) + performance.now() - t);
    return out;
  };
  let at = now;
  const full = time(() => {
    const body = tickerBodies[turn++ % 2];
    at += 5_000;
    const snapshot = () => exchangeOf(path.state, 'bench').snapshot;
    // As the daemon does: the previous records let unchanged ones keep their objects.
    const coinAnswer = part('decode', () => decode.coins(coinsBody, snapshot().coins));
    part('step and its write', () => path.decide({ type: 'answer', exchange: 'bench', endpoint: 'coins', answer: coinAnswer }, at));
    const tickerAnswer = part('decode', () => decode.tickers(body, snapshot().tickers));
    part('step and its write', () => path.decide({ type: 'answer', exchange: 'bench', endpoint: 'tickers', answer: tickerAnswer }, at));
    part('metrics rendered (a scrape)', () => {
      renderNetworks(snapshot(), keep);
      renderTickers(snapshot(), keep);
    });
    for (const [name, ms] of current) steps.set(name, [...(steps.get(name) ?? []), ms]);
    current = new Map();
  });
  const base = exchangeOf(path.state, 'bench').snapshot;
  store.close();
  rmSync(dir, { recursive: true, force: true });
  let networks = 0;
  for (const c of base.coins.values()) networks += c.networkList.length;
  return { coins, networks, symbols: base.tickers.size, mb: (coinsBody.length + tickersBody.length) / 1e6, bare, parseValidate, full, ccxtParse, steps };
}

const rows = [pollCost(4000), pollCost(16000)];
console.log(`spotwatch bench — node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB; median of ${RUNS} runs\n`);
console.log('| coins | networks | symbols | body MB | JSON.parse ms | decode ms | ratio | whole poll ms | ratio |');
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
  const { cycleBench, cycleTable, idleFigure } = await import('./cycle.mjs');
  const sizes = (process.env.CYCLE_SIZES ?? '4000,16000').split(',').map(Number);
  const rows = await cycleBench({ sizes });
  console.log('\ndaemon CPU per poll cycle (coins + tickers; /proc, every thread) against the floor (a bare client receiving the same answers) and JSON.parse of the same two answers');
  console.log(cycleTable(rows).join('\n'));
  const idle = await idleFigure();
  console.log(`\nidle daemon (4,000 coins, no poll due): ${idle.msPerSecond.toFixed(2)} ms of CPU per second (target 1.5), RSS ${(idle.rss / 2 ** 20).toFixed(0)} MB`);
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
console.log('\nwhole poll = one coins and one tickers answer, in this process: decode (the spec\'s dialect), step (guard, merge, diff, rules of');
console.log('alerts.example.yaml, alert lifecycle) and its write to SQLite, as the engine does, and the metrics of both parts rendered (as a scrape).');
