import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { main } from '../../src/cli';
import { silentLogger } from '../../src/lib/logger';
import { ExchangeDouble } from '../support/exchange-double';
import { startTestSimulator, type TestSimulator } from '../support/simulator';

/** `spotwatch once --json` when one endpoint fails or a watched symbol is refused. */

jest.setTimeout(30_000);

class Sink extends Writable {
  text = '';
  override _write(chunk: Buffer, _enc: string, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

interface Doc {
  exchanges: { name: string; coins?: { coin: string; networkList: { network: string; chain: string | null }[] }[] | null; tickers?: { symbol: string }[] | null; error?: Record<string, string> }[];
}

let dir: string;
let sim: TestSimulator;
let double: ExchangeDouble;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'spotwatch-once-'));
  sim = await startTestSimulator({ coins: 20, seed: 4, logger: silentLogger() });
  double = await new ExchangeDouble(sim.url).start();
  writeFileSync(
    join(dir, 'once.yaml'),
    `exchanges:\n  - name: main\n    base_url: ${double.url}\n    retries: { max: 0 }\n    symbols: [BTCUSDT, ETHUSDT, SOLUSDT]\nlog: { level: error }\n`,
  );
});
afterAll(async () => {
  await double.stop();
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});
afterEach(() => {
  double.respond = (_path, upstream) => upstream();
});

async function once(): Promise<{ code: number; doc: Doc; err: string }> {
  const stdout = new Sink();
  const stderr = new Sink();
  const code = await main(['once', '--json', '--config', join(dir, 'once.yaml')], { stdout, stderr, env: {} });
  if (stdout.text === '') throw new Error(`no output (exit ${code}): ${stderr.text}`);
  return { code, doc: JSON.parse(stdout.text) as Doc, err: stderr.text };
}

it('prints the coins when the tickers fail, with the tickers error beside them, and exits 1', async () => {
  double.respond = (path, upstream) => (path.startsWith('/api/v3/market/') ? { status: 503, body: '{"code":-1001,"msg":"Service Unavailable."}' } : upstream());
  const { code, doc, err } = await once();
  expect(code).toBe(1);
  const [ex] = doc.exchanges;
  expect(ex?.coins?.length).toBe(20);
  expect(ex?.tickers).toBeNull();
  expect(ex?.error).toEqual({ endpoint: 'tickers', kind: 'http_5xx', message: 'tickers: HTTP 503 code -1001: Service Unavailable.' });
  expect(err).toBe('main: poll failed (http_5xx): tickers: HTTP 503 code -1001: Service Unavailable.\n');
});

it('prints the tickers when the coins fail', async () => {
  double.respond = (path, upstream) => (path.startsWith('/api/v3/coins') ? { status: 503, body: '{"code":-1001,"msg":"Service Unavailable."}' } : upstream());
  const { code, doc } = await once();
  expect(code).toBe(1);
  expect(doc.exchanges[0]?.coins).toBeNull();
  expect(doc.exchanges[0]?.tickers?.map((t) => t.symbol)).toEqual(['BTCUSDT', 'ETHUSDT', 'SOLUSDT']);
  expect(doc.exchanges[0]?.error).toMatchObject({ endpoint: 'coins', kind: 'http_5xx' });
});

it('a refused watched symbol (-2007) is missing, not a failure: the rest printed, exit 0', async () => {
  double.respond = (path, upstream) =>
    decodeURIComponent(path).includes('"ETHUSDT"') ? { status: 400, body: '{"code":-2007,"msg":"Symbol does not exist"}' } : upstream();
  const { code, doc, err } = await once();
  expect(code).toBe(0);
  expect(doc.exchanges[0]?.coins?.length).toBe(20);
  expect(doc.exchanges[0]?.tickers?.map((t) => t.symbol)).toEqual(['BTCUSDT', 'SOLUSDT']);
  expect(doc.exchanges[0]?.error).toBeUndefined();
  expect(err).toBe('main: watched symbols the exchange refused (missing): ETHUSDT\n');
});

it('both failing is one error, as before', async () => {
  double.respond = () => ({ status: 503, body: '{"code":-1001,"msg":"Service Unavailable."}' });
  const { code, doc } = await once();
  expect(code).toBe(1);
  expect(doc.exchanges).toEqual([{ name: 'main', error: { kind: 'http_5xx', message: 'coins: HTTP 503 code -1001: Service Unavailable.' } }]);
});

it('prints each network with its canonical chain, last, null when unknown', async () => {
  const { doc } = await once();
  const usdt = doc.exchanges[0]?.coins?.find((c) => c.coin === 'USDT');
  expect(usdt?.networkList.map((n) => [n.network, n.chain])).toEqual([
    ['Tron(TRC20)', 'tron'], ['Ethereum(ERC20)', 'ethereum'], ['BNB Smart Chain(BEP20)', 'bsc'], ['SOL', 'solana'],
    ['Polygon(POS)', 'polygon'], ['TON', 'ton'], ['ARBITRUM', 'arbitrum'], ['AVAXC', 'avalanche-c'],
  ]);
  expect(Object.keys(usdt?.networkList[0] ?? {}).at(-1)).toBe('chain');
});
