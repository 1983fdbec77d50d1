// The figure users pay: the daemon's whole-process CPU per poll cycle (every thread, as the OS
// counts it in /proc/<pid>/stat), against the floor (bench/floor.mjs: a bare client only
// receiving the same answers, measured the same way) and a bare JSON.parse of the same two
// answers, in the same run, for three upstreams:
//   unchanged — every answer byte for byte the last one (the common case: coin lists rarely change);
//   prices    — every ticker's price moves between polls, the coin list stays;
//   mix       — a few coins change per poll (a withdraw flag flips) and about 30 % of the tickers.
// The answers are rendered by the reference exchange's own renderers, then served by a small
// server here (so the upstream is exactly what the mode says), each poll the next of a sequence.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';
import { quantile, start, waitFor } from './processes.mjs';

const require = createRequire(import.meta.url);
const { renderCoinsBody, renderTickersBody } = require(join(process.cwd(), 'dist', 'simulator', 'index.js'));
// The reference exchange's seeded PRNG: every run serves the same answers.
const { seededRandom } = require(join(process.cwd(), 'dist', 'simulator', 'market', 'random.js'));

/** Bodies per sequence: each differs from the one before (a mode that changes), served in a ring. */
const RING = 8;
const CLK_TCK = 100;

/** The top-level records of a JSON array, as their exact texts (strings and nesting respected). */
export function recordTexts(body) {
  const out = [];
  let depth = 0;
  let inString = false;
  let from = -1;
  for (let i = 0; i < body.length; i++) {
    const ch = body.charCodeAt(i);
    if (inString) {
      if (ch === 92) i++;
      else if (ch === 34) inString = false;
      continue;
    }
    if (ch === 34) inString = true;
    else if (ch === 123 || ch === 91) {
      if (ch === 123 && depth === 1) from = i;
      depth++;
    } else if (ch === 125 || ch === 93) {
      depth--;
      if (ch === 125 && depth === 1) out.push(body.slice(from, i + 1));
    }
  }
  return out;
}

const join_ = (records) => `[${records.join(',')}]`;

/** The answers of one mode: rings of coins bodies and tickers bodies. */
export function answers(coins, mode, now = Date.UTC(2026, 0, 1)) {
  const coins0 = renderCoinsBody({ coins, seed: 1 });
  const tickers = Array.from({ length: mode === 'unchanged' ? 1 : RING }, (_, i) => renderTickersBody({ coins, seed: 1, now: now + i * 5_000 }));
  if (mode === 'unchanged') return { coins: [coins0], tickers };
  if (mode === 'prices') return { coins: [coins0], tickers };
  // mix: about 30 % of the tickers take their next text each poll; 5 coins flip a withdraw flag.
  const rnd = seededRandom(7);
  const coinRecords = recordTexts(coins0);
  const tickerRings = tickers.map(recordTexts);
  const mixedTickers = [];
  let current = tickerRings[0];
  for (let i = 0; i < RING; i++) {
    current = current.map((t, k) => (rnd() < 0.3 ? (tickerRings[i][k] ?? t) : t));
    mixedTickers.push(join_(current));
  }
  const mixedCoins = [];
  let records = coinRecords;
  for (let i = 0; i < RING; i++) {
    records = [...records];
    for (let n = 0; n < 5; n++) {
      const k = Math.floor(rnd() * records.length);
      const r = records[k];
      records[k] = r.includes('"withdrawEnable":true') ? r.replace('"withdrawEnable":true', '"withdrawEnable":false') : r.replace('"withdrawEnable":false', '"withdrawEnable":true');
    }
    mixedCoins.push(join_(records));
  }
  return { coins: mixedCoins, tickers: mixedTickers };
}

/** Median CPU time (ms) of JSON.parse on both answers: this process's own CPU, nothing else running. */
function jsonParseMs(coinsBody, tickersBody, runs = 9) {
  const samples = [];
  JSON.parse(coinsBody);
  JSON.parse(tickersBody);
  for (let i = 0; i < runs; i++) {
    const t = process.cpuUsage();
    JSON.parse(coinsBody);
    JSON.parse(tickersBody);
    const d = process.cpuUsage(t);
    samples.push((d.user + d.system) / 1000);
  }
  return quantile(samples, 0.5);
}

/** The whole process's CPU so far (ms, all threads) and its resident memory (bytes), from /proc. */
function procStat(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const cpuMs = ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
  const rss = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
  return { cpuMs, rss };
}

/** CPU (ms) of each of the process's threads, summed by thread name (main, V8 workers, libuv pool...). */
function threadCpu(pid) {
  const out = new Map();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let stat;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // a thread that ended meanwhile
    }
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const label = tid === String(pid) ? 'main thread' : name.replace(/\d+$/, '');
    out.set(label, (out.get(label) ?? 0) + ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK);
  }
  return out;
}

/** A server of the two endpoints; each request gets the next body of its ring. */
async function upstream(rings, gzip = false) {
  const served = { coins: 0, tickers: 0 };
  // Compressed once, ahead: the server's own cost is not what is measured.
  const sent = Object.fromEntries(Object.entries(rings).map(([k, ring]) => [k, ring.map((b) => (gzip ? gzipSync(b, { level: 6 }) : b))]));
  const server = createServer((req, res) => {
    const which = req.url.startsWith('/api/v3/coins') ? 'coins' : req.url.startsWith('/api/v3/market/ticker/24hr') ? 'tickers' : undefined;
    if (which === undefined) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"code":-1,"msg":"not here"}');
      return;
    }
    const ring = sent[which];
    const body = ring[served[which]++ % ring.length];
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...(gzip && { 'content-encoding': 'gzip' }) }).end(body);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}`, served, close: () => new Promise((r) => server.close(r)) };
}

/**
 * One figure: the daemon polling `mode` answers of `coins` coins back to back (1 s intervals,
 * a cycle at 16,000 coins takes longer), CPU over `cycles` cycles after `warmup` cycles.
 */
export async function cycleFigure({ coins, mode, cycles, warmup = 4, nodeFlags = [] }) {
  // `<mode>-gzip`: the same answers sent gzip-compressed, as an exchange behind a CDN sends them.
  const gzip = mode.endsWith('-gzip');
  const rings = answers(coins, gzip ? mode.slice(0, -'-gzip'.length) : mode);
  const parseMs = jsonParseMs(rings.coins[0], rings.tickers[0]);
  const up = await upstream(rings, gzip);
  const dir = mkdtempSync(join(tmpdir(), 'spotwatch-cycle-'));
  const file = join(dir, 'cycle.yaml');
  writeFileSync(
    file,
    `exchanges:\n  - name: bench\n    base_url: ${up.url}\n    poll: { coins: 1s, tickers: 1s }\n    weight_limit: { max: 1000000, window: 10s }\n    timeout: 60s\n` +
      `server: { listen: "127.0.0.1:0" }\nstate_dir: ${join(dir, 'data')}\nrules_file: ${join(process.cwd(), 'alerts.example.yaml')}\nlog: { level: warn, format: json }\n`,
  );
  const d = start(['run', '--config', file], nodeFlags);
  try {
    const cyclesDone = () => Math.min(up.served.coins, up.served.tickers);
    await waitFor(async () => cyclesDone() >= warmup, `${warmup} warm-up cycles`, 180_000, 20);
    const c0 = cyclesDone();
    const s0 = procStat(d.child.pid);
    const t0 = threadCpu(d.child.pid);
    await waitFor(async () => cyclesDone() >= c0 + cycles, `${cycles} cycles`, 600_000, 20);
    const s1 = procStat(d.child.pid);
    const threads = new Map();
    for (const [name, ms] of threadCpu(d.child.pid)) threads.set(name, (ms - (t0.get(name) ?? 0)) / cycles);
    const bytes = (rings.coins[0].length + rings.tickers[0].length) / 1e6;
    const perCycle = (s1.cpuMs - s0.cpuMs) / cycles;
    d.child.kill('SIGTERM');
    await d.exited;
    // The floor, in the same run: a bare client receiving the same answers (bench/floor.mjs).
    const floor = await floorFigure(rings, gzip, cycles, Math.min(warmup, 8));
    return { coins, mode, cycles, mb: bytes, parseMs, perCycle, floorMs: floor, ratio: perCycle / parseMs, rss: s1.rss, threads };
  } finally {
    d.child.kill('SIGTERM');
    await d.exited;
    // CYCLE_OUTPUT: a file for the daemon's output (with CYCLE_FLAGS="--trace-gc", say).
    if (process.env.CYCLE_OUTPUT) writeFileSync(process.env.CYCLE_OUTPUT, d.output());
    await up.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The floor's CPU per cycle (ms): bench/floor.mjs polling its own server of the same rings. */
async function floorFigure(rings, gzip, cycles, warmup) {
  const up = await upstream(rings, gzip);
  const child = spawn(process.execPath, [join(process.cwd(), 'bench', 'floor.mjs'), up.url], { stdio: 'ignore' });
  const exited = new Promise((r) => child.on('exit', r));
  try {
    const cyclesDone = () => Math.min(up.served.coins, up.served.tickers);
    await waitFor(async () => cyclesDone() >= warmup, 'the floor client\'s warm-up', 120_000, 20);
    const c0 = cyclesDone();
    const s0 = procStat(child.pid);
    await waitFor(async () => cyclesDone() >= c0 + cycles, 'the floor client\'s cycles', 600_000, 20);
    return (procStat(child.pid).cpuMs - s0.cpuMs) / cycles;
  } finally {
    child.kill('SIGTERM');
    await exited;
    await up.close();
  }
}

/**
 * An idle daemon: what it costs per second (ms of CPU, whole process) while no poll is due (the
 * polls an hour apart), after `warmMs` for its start and first polls to settle; and its RSS.
 */
export async function idleFigure({ coins = 4000, warmMs = 30_000, measureMs = 30_000 } = {}) {
  const rings = answers(coins, 'unchanged');
  const up = await upstream(rings);
  const dir = mkdtempSync(join(tmpdir(), 'spotwatch-idle-'));
  const file = join(dir, 'idle.yaml');
  writeFileSync(
    file,
    `exchanges:\n  - name: bench\n    base_url: ${up.url}\n    poll: { coins: 1h, tickers: 1h }\n    timeout: 60s\n` +
      `server: { listen: "127.0.0.1:0" }\nstate_dir: ${join(dir, 'data')}\nrules_file: ${join(process.cwd(), 'alerts.example.yaml')}\nlog: { level: warn, format: json }\n`,
  );
  const d = start(['run', '--config', file]);
  try {
    await waitFor(async () => up.served.coins >= 1 && up.served.tickers >= 1, 'the first polls', 120_000, 20);
    await new Promise((r) => setTimeout(r, warmMs));
    const s0 = procStat(d.child.pid);
    const t0 = threadCpu(d.child.pid);
    const t = performance.now();
    await new Promise((r) => setTimeout(r, measureMs));
    const s1 = procStat(d.child.pid);
    const seconds = (performance.now() - t) / 1000;
    const threads = new Map();
    for (const [name, ms] of threadCpu(d.child.pid)) threads.set(name, (ms - (t0.get(name) ?? 0)) / seconds);
    return { coins, msPerSecond: (s1.cpuMs - s0.cpuMs) / seconds, rss: s1.rss, threads };
  } finally {
    d.child.kill('SIGTERM');
    await d.exited;
    await up.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The table of `npm run bench`: every mode at 4,000 and 16,000 coins, and the unchanged answers
 * sent compressed at 4,000. At 4,000 coins the warm-up is 30 cycles: after the first poll (the
 * whole answer read, stored and rendered) V8's memory reducer shrinks the heap with up to three
 * full collections over the next 20-25 s (--trace-gc), a cost of starting, not of a poll.
 */
export async function cycleBench({ sizes = [4000, 16000], modes = ['unchanged', 'prices', 'mix'], extra = [{ coins: 4000, mode: 'unchanged-gzip' }], nodeFlags = [], log = () => undefined } = {}) {
  const rows = [];
  const runs = [...sizes.flatMap((coins) => modes.map((mode) => ({ coins, mode }))), ...extra];
  for (const { coins, mode } of runs) {
    const t = performance.now();
    const r = await cycleFigure({ coins, mode, cycles: coins > 8000 ? 10 : 12, warmup: coins > 8000 ? 4 : 30, nodeFlags });
    rows.push(r);
    const threads = [...r.threads].filter(([, ms]) => ms >= 0.5).map(([name, ms]) => `${name} ${ms.toFixed(1)}`).join(', ');
    log(`${coins} ${mode}: ${r.perCycle.toFixed(1)} ms/cycle (${threads}; ${((performance.now() - t) / 1000).toFixed(0)} s)`);
  }
  return rows;
}

/**
 * Against the floor (issue 30): unchanged answers at most 1.5x the floor; answers that change
 * at most the floor plus 1.5x JSON.parse of both answers.
 */
function target(r) {
  return r.mode.startsWith('unchanged') ? 1.5 * r.floorMs : r.floorMs + 1.5 * r.parseMs;
}

export function cycleTable(rows) {
  const lines = ['| coins | upstream | body MB | JSON.parse ms | floor ms | daemon CPU per cycle ms | x floor | target ms | x JSON.parse | RSS MB |', '|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|'];
  for (const r of rows) {
    lines.push(`| ${r.coins} | ${r.mode} | ${r.mb.toFixed(1)} | ${r.parseMs.toFixed(1)} | ${r.floorMs.toFixed(1)} | ${r.perCycle.toFixed(1)} | ${(r.perCycle / r.floorMs).toFixed(2)} | ${target(r).toFixed(1)} | ${r.ratio.toFixed(2)} | ${(r.rss / 2 ** 20).toFixed(0)} |`);
  }
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = (process.env.CYCLE_SIZES ?? '4000,16000').split(',').map(Number);
  // CYCLE_MODES: any of unchanged, prices, mix, each also as <mode>-gzip (the answers sent compressed).
  const modes = (process.env.CYCLE_MODES ?? 'unchanged,prices,mix').split(',');
  // CYCLE_FLAGS: the daemon's node flags, e.g. "--max-old-space-size=128" or "--cpu-prof".
  const nodeFlags = (process.env.CYCLE_FLAGS ?? '').split(' ').filter(Boolean);
  const rows = await cycleBench({ sizes, modes, extra: [], nodeFlags, log: (m) => console.error(m) });
  console.log(cycleTable(rows).join('\n'));
  if (process.env.CYCLE_IDLE !== '0') {
    const idle = await idleFigure();
    const threads = [...idle.threads].filter(([, ms]) => ms >= 0.05).map(([name, ms]) => `${name} ${ms.toFixed(2)}`).join(', ');
    console.log(`\nidle daemon (4,000 coins, no poll due): ${idle.msPerSecond.toFixed(2)} ms of CPU per second (target 1.5; ${threads}), RSS ${(idle.rss / 2 ** 20).toFixed(0)} MB`);
  }
}
