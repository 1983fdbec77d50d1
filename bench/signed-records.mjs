#!/usr/bin/env node
// The signed dialects on the record memory (decode-list.ts; OKX's rows, decode-records.ts
// decodeItems): parse and decode of a changed coin list in Binance's and OKX's answers, afresh
// and with the last answer's records remembered, runs interleaved, median, CPU time of the
// process, against a bare JSON.parse of the same text in the same run. Not part of `npm run bench`.
//   npm run build && node bench/signed-records.mjs     (COINS=4000 RUNS=15 by default)
// The answers are the reference exchange's coin list written in each exchange's fields
// (dialects.md section 2): Binance's capital config is the spec's coin list; OKX one row per
// coin and chain in its envelope.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { cpuMs, median } from './cpu.mjs';

const require = createRequire(import.meta.url);
const dist = (p) => require(join(process.cwd(), 'dist', p));
const { renderCoinsBody } = dist('simulator/index.js');
const { answerMemory } = dist('exchange/decode-records.js');
const { binance } = dist('exchange/dialects/binance/index.js');
const { okx } = dist('exchange/dialects/okx/index.js');

const COINS = Number(process.env.COINS ?? 4000);
const RUNS = Number(process.env.RUNS ?? 15);


const spec = JSON.parse(renderCoinsBody({ coins: COINS, seed: 1 }));

/** The coin list with `n` coins' first network closed for withdrawals, evenly spread. */
function closeSome(coins, n) {
  const step = Math.floor(coins.length / Math.max(1, n));
  return coins.map((c, i) => (n > 0 && i % step === 0 && i / step < n ? { ...c, networkList: c.networkList.map((x, j) => (j === 0 ? { ...x, withdrawEnable: false } : x)) } : c));
}

const write = {
  binance: (coins) => JSON.stringify(coins.map((c) => ({ ...c, free: '0', locked: '0', trading: true }))),
  okx: (coins) =>
    JSON.stringify({
      code: '0',
      msg: '',
      data: coins.flatMap((c) =>
        c.networkList.map((n) => ({
          canDep: n.depositEnable, canWd: n.withdrawEnable, ccy: c.coin, chain: `${c.coin}-${n.network}`, ctAddr: n.contractAddress ?? '',
          mainNet: n.isDefault, minDep: n.depositDust, minDepArrivalConfirm: String(n.minConfirm), minFee: n.withdrawFee, minWd: n.withdrawMin,
          name: c.name, needTag: n.withdrawTag, wdTickSz: '8',
        })),
      ),
    }),
};

const dialects = { binance, okx };

async function read(dialect, text, previous, memory) {
  return dialect.decode.coins(await dialect.decode.parse(text, 'coins', memory), previous, memory);
}

async function cost(dialect, last, next) {
  const first = await read(dialect, last);
  const previous = new Map(first.records.map((r) => [r.coin, r]));
  const samples = { afresh: [], remembered: [], parse: [] };
  for (let i = 0; i <= RUNS; i++) {
    let t = process.cpuUsage();
    JSON.parse(next);
    if (i > 0) samples.parse.push(cpuMs(t));
    for (const way of ['afresh', 'remembered']) {
      const memory = way === 'remembered' ? answerMemory() : undefined;
      if (memory !== undefined) await read(dialect, last, previous, memory);
      t = process.cpuUsage();
      await read(dialect, next, previous, memory);
      if (i > 0) samples[way].push(cpuMs(t));
    }
  }
  return { parse: median(samples.parse), afresh: median(samples.afresh), remembered: median(samples.remembered) };
}

console.log(`signed records bench — node ${process.version}, ${COINS} coins, median of ${RUNS}, CPU time of the process\n`);
console.log('| dialect | change | MB | JSON.parse ms | afresh ms | x JSON.parse | remembered ms | x JSON.parse | remembered / afresh |');
console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|');
for (const name of ['binance', 'okx']) {
  const last = write[name](spec);
  // A coin listed in the middle of the list (as a copy of another, under a new symbol): every record after it is one coin further on.
  const half = Math.floor(spec.length / 2);
  const listed = [...spec.slice(0, half), { ...spec[0], coin: 'NEWCOIN', networkList: spec[0].networkList.map((x) => ({ ...x, coin: 'NEWCOIN' })) }, ...spec.slice(half)];
  for (const [change, coins] of [['5 coins changed', closeSome(spec, 5)], ['100 coins changed', closeSome(spec, 100)], ['a coin listed in the middle', listed], ['every coin changed', closeSome(spec, COINS)]]) {
    const next = write[name](coins);
    const { parse, afresh, remembered } = await cost(dialects[name], last, next);
    console.log(`| ${name} | ${change} | ${(next.length / 1e6).toFixed(1)} | ${parse.toFixed(1)} | ${afresh.toFixed(1)} | ${(afresh / parse).toFixed(2)} | ${remembered.toFixed(1)} | ${(remembered / parse).toFixed(2)} | ${(remembered / afresh).toFixed(2)} |`);
  }
}
