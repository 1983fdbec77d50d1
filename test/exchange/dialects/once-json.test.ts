import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pollOnce } from '../../../src/commands/once';
import { loadConfigFile } from '../../../src/config';
import { keysOf, NETWORK_FIELDS, TICKER_FIELDS, COIN_FIELDS } from '../../../src/snapshot/fields';
import { fixture, RecordedExchange, type Answer } from './recorded';

/** `once --json` prints every public dialect in the spec's field names, exact text kept. */

class Sink extends Writable {
  text = '';
  override _write(chunk: Buffer, _enc: string, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

const ANSWERS: [string, string, string][] = [
  ['/api/v2/spot/public/coins', 'bitget', 'coins.json'],
  ['/api/v2/spot/market/tickers', 'bitget', 'tickers.json'],
  ['/api/v3/currencies', 'kucoin', 'currencies.json'],
  ['/api/v1/market/allTickers', 'kucoin', 'all-tickers.json'],
  ['/api/v4/spot/currencies', 'gate', 'currencies.json'],
  ['/api/v4/spot/tickers', 'gate', 'tickers.json'],
  ['/v2/reference/currencies', 'htx', 'currencies.json'],
  ['/market/tickers', 'htx', 'tickers.json'],
];
const NAMES = ['bitget', 'kucoin', 'gate', 'htx'];

let exchange: RecordedExchange;
let dir: string;
beforeEach(async () => {
  exchange = await new RecordedExchange(new Map<string, Answer>(ANSWERS.map(([path, d, file]) => [path, { body: fixture(d, file) }]))).start();
  dir = mkdtempSync(join(tmpdir(), 'spotwatch-once-'));
});
afterEach(async () => {
  await exchange.stop();
  rmSync(dir, { recursive: true, force: true });
});

it('prints the four public dialects in the spec field names, in its order, with the exact text', async () => {
  const config = join(dir, 'spotwatch.yaml');
  writeFileSync(config, `log: { level: error }\nexchanges:\n${NAMES.map((n) => `  - name: ${n}\n    dialect: ${n}\n    base_url: ${exchange.url}\n`).join('')}`);
  const stdout = new Sink();
  const stderr = new Sink();
  expect(await pollOnce(config, { json: true }, { stdout, stderr, env: {} })).toBe(0);
  expect(stderr.text).toBe('');
  const printed = JSON.parse(stdout.text) as { exchanges: { name: string; coins: Record<string, unknown>[]; tickers: Record<string, unknown>[] }[] };
  expect(printed.exchanges.map((e) => e.name)).toEqual(NAMES);
  for (const e of printed.exchanges) {
    expect(Object.keys(e.coins[0]!)).toEqual(keysOf(COIN_FIELDS));
    expect(Object.keys((e.coins[0]!.networkList as Record<string, unknown>[])[0]!)).toEqual([...keysOf(NETWORK_FIELDS), 'chain']);
    expect(Object.keys(e.tickers[0]!)).toEqual(keysOf(TICKER_FIELDS));
  }
  // Text kept as sent, derived values in plain notation.
  expect(stdout.text).toContain('"quoteVolume":"2.3822168242201668E8"');
  expect(stdout.text).toContain('"lowPrice":"8988.0"');
  expect(stdout.text).toContain('"priceChangePercent":"-0.0118"');
  expect(stdout.text).toContain('"openPrice":"67291.5"');
  expect(exchange.requests.sort()).toEqual(ANSWERS.map(([p]) => p).sort());
});

it('fills base_url with each dialect\'s public address when the config leaves it out', async () => {
  const config = join(dir, 'spotwatch.yaml');
  writeFileSync(config, `exchanges:\n${NAMES.map((n) => `  - name: ${n}\n    dialect: ${n}\n`).join('')}`);
  const loaded = await loadConfigFile(config, {});
  expect(loaded.ok && loaded.config.exchanges.map((e) => [e.dialect, e.base_url])).toEqual([
    ['bitget', 'https://api.bitget.com'], ['kucoin', 'https://api.kucoin.com'], ['gate', 'https://api.gateio.ws'], ['htx', 'https://api.huobi.pro'],
  ]);
});
