#!/usr/bin/env node
// Decoding a changed answer, record by record: what one coins or tickers answer costs to parse
// (exact decimals) and validate, afresh and with the last answer's records remembered
// (exchange/decode-records.ts), against a bare JSON.parse of the same bytes. Main thread only,
// decode only: the whole poll is bench/run.mjs. Not part of `npm run bench`.
//   npm run build && node bench/records.mjs            (COINS=4000 RUNS=15 by default)
// COINS=16000 for the larger scale; WAY=source-text to parse with Node 22's source text.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { cpuMs, median } from './cpu.mjs';

const require = createRequire(import.meta.url);
const dist = (p) => require(join(process.cwd(), 'dist', p));
const { renderCoinsBody, renderTickersBody } = dist('simulator/index.js');
const { recordSpans } = dist('lib/json-records.js');
const { exactDecimalJson } = dist('exchange/decimal.js');
const { answerMemory } = dist('exchange/decode-records.js');
const { NETWORK_DECIMAL_KEYS, TICKER_DECIMAL_KEYS } = dist('exchange/dialects/spot-v3/parse.js');
const { decodeCoinsInTurns } = dist('exchange/dialects/spot-v3/coins.js');
const { decodeTickersInTurns } = dist('exchange/dialects/spot-v3/tickers.js');

const COINS = Number(process.env.COINS ?? 4000);
const RUNS = Number(process.env.RUNS ?? 15);
const WAY = process.env.WAY ?? 'pre-pass';


async function time(fn) {
  await fn();
  const samples = [];
  for (let i = 0; i < RUNS; i++) {
    const t = process.cpuUsage();
    await fn();
    samples.push(cpuMs(t));
  }
  return median(samples);
}

/** The answer with `share` of its records taken from `other` (same records, other values), evenly spread. */
function mix(text, other, share) {
  const a = recordSpans(text);
  const b = recordSpans(other);
  const every = share === 0 ? Infinity : 1 / share;
  let out = text.slice(0, a.open + 1);
  a.spans.forEach(([s, e], i) => {
    const from = Math.floor(i % every) === 0 && share > 0 ? other.slice(...b.spans[i]) : text.slice(s, e);
    out += (i === 0 ? '' : ',') + from;
  });
  return out + text.slice(a.close);
}

/** The coin list with `n` coins' first network closed for withdrawals, evenly spread. */
function closeSome(text, n) {
  const a = recordSpans(text);
  const step = Math.floor(a.spans.length / Math.max(1, n));
  let out = text.slice(0, a.open + 1);
  a.spans.forEach(([s, e], i) => {
    const record = text.slice(s, e);
    out += (i === 0 ? '' : ',') + (n > 0 && i % step === 0 && i / step < n ? record.replace('"withdrawEnable":true', '"withdrawEnable":false') : record);
  });
  return out + text.slice(a.close);
}

const now = Date.UTC(2026, 0, 1);
const coins = renderCoinsBody({ coins: COINS, seed: 1 });
const tickers = renderTickersBody({ coins: COINS, seed: 1, now });
const tickersMoved = renderTickersBody({ coins: COINS, seed: 1, now: now + 5_000 });
const json = { coins: exactDecimalJson(NETWORK_DECIMAL_KEYS, WAY), tickers: exactDecimalJson(TICKER_DECIMAL_KEYS, WAY) };
const decode = { coins: decodeCoinsInTurns, tickers: decodeTickersInTurns };

async function read(endpoint, text, previous, memory) {
  return decode[endpoint](await json[endpoint].parseInTurns(text, memory), previous, memory);
}

/**
 * Parse and decode of `next` after `last` was read, afresh and with a memory of `last`'s
 * records, runs of the two interleaved; the previous records as the daemon passes them.
 */
async function cost(endpoint, last, next) {
  const first = await read(endpoint, last);
  const previous = new Map(first.records.map((r) => [r.coin ?? r.symbol, r]));
  const samples = { afresh: [], remembered: [] };
  for (let i = 0; i <= RUNS; i++) {
    for (const way of ['afresh', 'remembered']) {
      const memory = way === 'remembered' ? answerMemory() : undefined;
      if (memory !== undefined) await read(endpoint, last, previous, memory);
      const t = process.cpuUsage();
      await read(endpoint, next, previous, memory);
      if (i > 0) samples[way].push(cpuMs(t));
    }
  }
  return { afresh: median(samples.afresh), remembered: median(samples.remembered) };
}

const bare = { coins: await time(() => JSON.parse(coins)), tickers: await time(() => JSON.parse(tickers)) };
const cases = [
  ['coins', 'unchanged text, every record (whole answer compared by the client first)', coins, coins],
  ['coins', '5 coins changed', coins, closeSome(coins, 5)],
  ['coins', '100 coins changed', coins, closeSome(coins, 100)],
  ['coins', 'every coin changed', coins, closeSome(coins, COINS)],
  ['tickers', '30 % of tickers moved', tickers, mix(tickers, tickersMoved, 0.3)],
  ['tickers', 'every ticker moved', tickers, tickersMoved],
];
console.log(`records bench — node ${process.version}, ${COINS} coins, decimals by ${WAY}, median of ${RUNS}, CPU time of the process; JSON.parse: coins ${bare.coins.toFixed(1)} ms (${(coins.length / 1e6).toFixed(1)} MB), tickers ${bare.tickers.toFixed(1)} ms (${(tickers.length / 1e6).toFixed(1)} MB)\n`);
console.log('| answer | change | afresh ms | x JSON.parse | records remembered ms | x JSON.parse |');
console.log('|---|---|---:|---:|---:|---:|');
for (const [endpoint, name, last, next] of cases) {
  const { afresh, remembered: kept } = await cost(endpoint, last, next);
  const b = bare[endpoint];
  console.log(`| ${endpoint} | ${name} | ${afresh.toFixed(1)} | ${(afresh / b).toFixed(2)} | ${kept.toFixed(1)} | ${(kept / b).toFixed(2)} |`);
}
