import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli';
import { COIN_FIELDS, keysOf, NETWORK_FIELDS, TICKER_FIELDS } from '../../src/snapshot/fields';
import type { SignedExchange } from '../exchange/dialects/signed-exchange';
import { Sink } from '../support/sink';
import { binanceExchange, bybitExchange, KEYS, mexcExchange, okxExchange } from '../exchange/dialects/signed-exchanges';

/**
 * `spotwatch once --json` against the four signed exchanges on loopback (each checking its own
 * signature): every dialect prints the spec's field names, in the spec's order (dialects.md).
 */

jest.setTimeout(30_000);

type Rec = Record<string, unknown>;
interface Doc {
  exchanges: { name: string; coins: (Rec & { networkList: Rec[] })[]; tickers: Rec[] }[];
}

let dir: string;
let exchanges: SignedExchange[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'spotwatch-once-signed-'));
  exchanges = await Promise.all([binanceExchange(KEYS.binance.api_secret), mexcExchange(KEYS.mexc.api_secret), okxExchange(KEYS.okx), bybitExchange(KEYS.bybit.api_secret)].map((e) => e.start()));
  const [binance, mexc, okx, bybit] = exchanges.map((e) => e.url);
  const flow = (o: Rec): string => `{ ${Object.entries(o).map(([k, v]) => `${k}: "${String(v)}"`).join(', ')} }`;
  writeFileSync(
    join(dir, 'once.yaml'),
    'exchanges:\n' +
      `  - { name: binance, dialect: binance, base_url: "${binance}", symbols: [BNBBTC], credentials: ${flow(KEYS.binance)} }\n` +
      `  - { name: mexc, dialect: mexc, base_url: "${mexc}", symbols: [BTCUSDT], credentials: ${flow(KEYS.mexc)} }\n` +
      `  - { name: okx, dialect: okx, base_url: "${okx}", symbols: [BTCUSDT], credentials: ${flow(KEYS.okx)} }\n` +
      `  - { name: bybit, dialect: bybit, base_url: "${bybit}", symbols: [BTCUSDT], credentials: ${flow(KEYS.bybit)} }\n` +
      'log: { level: error }\n',
  );
});
afterAll(async () => {
  await Promise.all(exchanges.map((e) => e.stop()));
  rmSync(dir, { recursive: true, force: true });
});

it('prints every signed dialect in the spec\'s field names and order', async () => {
  const stdout = new Sink();
  const stderr = new Sink();
  const code = await main(['once', '--json', '--config', join(dir, 'once.yaml')], { stdout, stderr, env: {} });
  expect({ code, stderr: stderr.text }).toEqual({ code: 0, stderr: '' });
  const doc = JSON.parse(stdout.text) as Doc;
  expect(doc.exchanges.map((e) => [e.name, e.coins.map((c) => c.coin), e.tickers.map((t) => t.symbol)])).toEqual([
    ['binance', ['1MBABYDOGE'], ['BNBBTC']],
    ['mexc', ['BTC', 'USDT'], ['BTCUSDT']],
    ['okx', ['BTC', 'USDT'], ['BTCUSDT']],
    ['bybit', ['USDT'], ['BTCUSDT']],
  ]);
  for (const ex of doc.exchanges) {
    for (const coin of ex.coins) {
      expect(Object.keys(coin)).toEqual(keysOf(COIN_FIELDS));
      // The spec's fields, in its order, then the canonical chain (null when unknown).
      for (const network of coin.networkList) expect(Object.keys(network)).toEqual([...keysOf(NETWORK_FIELDS), 'chain']);
    }
    for (const ticker of ex.tickers) expect(Object.keys(ticker)).toEqual(keysOf(TICKER_FIELDS));
  }
  // One value per dialect that only its mapping gives.
  const [binance, mexc, okx, bybit] = doc.exchanges;
  expect(binance?.tickers[0]?.priceChangePercent).toBe('-0.9596');
  expect(mexc?.coins[1]?.networkList[1]).toMatchObject({ network: 'TONCOIN', withdrawTag: true });
  expect(okx?.coins[0]).toMatchObject({ depositAllEnable: true, withdrawAllEnable: false });
  expect(bybit?.coins[0]?.networkList[3]).toMatchObject({ network: 'ZKSYNC', minConfirm: null, depositDust: null, depositEnable: false });
});
