#!/usr/bin/env node
// The history queries at scale (issue 15): 8,000 networks and a year of closures and reopenings
// in the change history (and so in the outages table), then /api/v1/outages and
// /api/v1/availability as the daemon answers them, timed as medians. Target: each under 50 ms.
// Availability reads the store's outage index (src/outages/availability.ts), loaded once after a
// restart: that load is timed on its own line, the queries after it.
// Run alone: npm run build && node bench/history.mjs (HISTORY_NETWORKS, HISTORY_DAYS to vary).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const dist = (p) => require(join(process.cwd(), 'dist', p));

const DAY = 86_400_000;

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function time(fn, runs = 9) {
  fn();
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    samples.push(performance.now() - t);
  }
  return median(samples);
}

/** A deterministic generator (mulberry32): the same history every run. */
function random(seed) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export async function historyBench({ networks = Number(process.env.HISTORY_NETWORKS ?? 8000), days = Number(process.env.HISTORY_DAYS ?? 365), log = console.log } = {}) {
  const { StateStore } = dist('store/store.js');
  const { availability } = dist('http/history-api.js');
  const { historySource } = dist('runtime/history-source.js');
  const dir = mkdtempSync(join(tmpdir(), 'spotwatch-bench-history-'));
  let store = StateStore.open(dir);
  try {
    const now = Date.UTC(2026, 0, 1);
    const start = now - days * DAY;
    const rnd = random(15);
    // 2,000 coins of 4 networks; each network and direction closes about once a month for
    // 10 minutes to 2 days (one closure in four with a message), and reopens.
    const nets = [];
    for (let i = 0; i < networks; i++) nets.push({ coin: `C${Math.floor(i / 4)}`, network: `N${i % 4}` });
    const coins = new Map();
    for (const n of nets) {
      const list = coins.get(n.coin) ?? [];
      list.push({ network: n.network, depositEnable: true, withdrawEnable: true, depositDesc: null, withdrawDesc: null });
      coins.set(n.coin, list);
    }
    store.saveSnapshot({ exchange: 'main', coinsAt: start, tickersAt: null, coins: new Map([...coins].map(([coin, networkList]) => [coin, { coin, networkList }])), tickers: new Map() }, 'coins');
    const events = [];
    for (const n of nets) {
      for (const dir of ['deposit', 'withdraw']) {
        let t = start + rnd() * 15 * DAY;
        while (t < now) {
          const length = 600_000 + rnd() * 2 * DAY;
          events.push({ kind: `${dir}_disabled`, exchange: 'main', coin: n.coin, network: n.network, before: true, after: false, at: Math.round(t) });
          if (rnd() < 0.25) events.push({ kind: `${dir}_desc_set`, exchange: 'main', coin: n.coin, network: n.network, before: null, after: 'wallet maintenance', at: Math.round(t) });
          if (t + length < now) events.push({ kind: `${dir}_enabled`, exchange: 'main', coin: n.coin, network: n.network, before: false, after: true, at: Math.round(t + length) });
          t += length + rnd() * 60 * DAY;
        }
      }
    }
    events.sort((a, b) => a.at - b.at);
    const fill = performance.now();
    for (let i = 0; i < events.length; i += 5000) store.transaction(() => store.appendChanges(events.slice(i, i + 5000)));
    const fillMs = performance.now() - fill;
    // Timed as after a restart: the WAL folded in, nothing else running.
    store.close();
    store = StateStore.open(dir);
    const outages = events.filter((e) => e.kind.endsWith('_disabled')).length;
    const current = { exchange: 'main', coinsAt: now, tickersAt: null, coins: new Map([...coins].map(([coin, networkList]) => [coin, { coin, networkList }])), tickers: new Map() };
    const source = historySource({ store: () => store, exchanges: () => [{ name: 'main', up: true, polls: { coins: null, tickers: null }, snapshot: current }], now: () => now });
    // The first availability after a restart reads every outage into the store's index (outages/availability.ts).
    const load = performance.now();
    store.outageTotals({ start: now - DAY, now });
    const loadMs = performance.now() - load;
    const rows = [
      ['history', `${networks} networks, ${days} days: ${events.length} changes, ${outages} outages`, `written in ${(fillMs / 1000).toFixed(1)} s (${((fillMs * 1000) / events.length).toFixed(0)} µs a change)`],
      ['availability index loaded (once after a restart)', `${loadMs.toFixed(0)} ms`, ''],
      ['outages, newest 100', `${time(() => store.queryOutages({ limit: 100 })).toFixed(2)} ms`, ''],
      ['outages of one coin', `${time(() => store.queryOutages({ coin: 'C1234', limit: 100 })).toFixed(2)} ms`, ''],
      ['outages of one network, since 30d', `${time(() => store.queryOutages({ exchange: 'main', coin: 'C1234', network: 'N2', since: now - 30 * DAY, limit: 100 })).toFixed(2)} ms`, ''],
      ['availability of one network, 90d', `${time(() => availability(source, { exchange: 'main', coin: 'C1234', network: 'N2' }, 90 * DAY, now)).toFixed(2)} ms`, ''],
      ['availability of one coin, 90d', `${time(() => availability(source, { coin: 'C1234' }, 90 * DAY, now)).toFixed(2)} ms`, ''],
      ['availability of every network, 1h', `${time(() => availability(source, {}, 3_600_000, now)).toFixed(2)} ms`, ''],
      ['availability of every network, 7d', `${time(() => availability(source, {}, 7 * DAY, now)).toFixed(2)} ms`, ''],
      ['availability of every network, 90d', `${time(() => availability(source, {}, 90 * DAY, now), 5).toFixed(2)} ms`, ''],
    ];
    if (log) for (const r of rows) log(`| ${r.join(' | ')} |`);
    return rows;
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log('| history figure | | |');
  console.log('|---|---|---|');
  await historyBench();
}
