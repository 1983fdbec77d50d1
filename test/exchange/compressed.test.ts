import { createServer, type Server } from 'node:http';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { testClient } from './test-client';
import { closeServer, listenLoopback } from '../support/loopback';

// Every decompression the client makes, counted: the real functions, called through.
jest.mock('node:zlib', () => {
  const real = jest.requireActual<typeof import('node:zlib')>('node:zlib');
  return { ...real, gunzip: jest.fn(real.gunzip), inflate: jest.fn(real.inflate), brotliDecompress: jest.fn(real.brotliDecompress) };
});
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the mocked module, to count its calls
const zlib = require('node:zlib') as { gunzip: jest.Mock; inflate: jest.Mock; brotliDecompress: jest.Mock };

/**
 * An answer that comes compressed is compared as it came: the same compressed bytes as the
 * last answer's are the same answer, found without decompressing anything. Other bytes are
 * decompressed (off the event loop) and compared with the last answer's decompressed bytes, as
 * a server may compress the same answer differently (a gzip header's time, another level).
 */
const coins = (flag: boolean): string => JSON.stringify([{ coin: 'USDT', name: 'Tether', depositAllEnable: true, withdrawAllEnable: flag, networkList: [{ network: 'TRX', coin: 'USDT', depositEnable: true, withdrawEnable: flag, withdrawFee: '1', withdrawMin: '10', withdrawIntegerMultiple: 1e-8, depositDesc: null, withdrawDesc: '<b>x</b>' }] }]).replace('1e-8', '1E-8');

const ENCODINGS = {
  gzip: { compress: (b: Buffer, n: number) => gzipSync(b, { level: 1 + (n % 9) }), calls: () => zlib.gunzip.mock.calls.length },
  deflate: { compress: (b: Buffer, n: number) => deflateSync(b, { level: 1 + (n % 9) }), calls: () => zlib.inflate.mock.calls.length },
  br: { compress: (b: Buffer, n: number) => brotliCompressSync(b, { params: { [jest.requireActual<typeof import('node:zlib')>('node:zlib').constants.BROTLI_PARAM_QUALITY]: 1 + (n % 11) } }), calls: () => zlib.brotliDecompress.mock.calls.length },
} as const;

describe('a compressed answer', () => {
  let server: Server;
  let url: string;
  let body = Buffer.alloc(0);
  let encoding = 'gzip';
  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.setHeader('content-encoding', encoding);
      // In pieces of 5 bytes: the comparison meets chunk boundaries anywhere.
      for (let i = 0; i < body.length; i += 5) res.write(body.subarray(i, i + 5));
      res.end();
    });
    url = await listenLoopback(server);
  });
  afterAll(() => closeServer(server));

  it.each(Object.keys(ENCODINGS) as (keyof typeof ENCODINGS)[])('%s: the same compressed bytes cost no decompression; the same answer compressed anew is decompressed once and found unchanged; a changed one reads as a fresh client reads it', async (name) => {
    const { compress, calls } = ENCODINGS[name];
    encoding = name;
    const client = testClient(url);
    try {
      body = compress(Buffer.from(coins(true)), 0);
      const first = await client.fetchCoins();
      const before = calls();
      const again = await client.fetchCoins();
      expect({ unchanged: again.unchanged, decompressed: calls() - before, same: again.records[0] === first.records[0] }).toEqual({ unchanged: true, decompressed: 0, same: true });
      // The same answer, compressed at another level: decompressed, and found unchanged.
      body = compress(Buffer.from(coins(true)), 4);
      const recompressed = await client.fetchCoins();
      expect({ unchanged: recompressed.unchanged, decompressed: calls() - before }).toEqual({ unchanged: true, decompressed: 1 });
      // Those bytes again: kept as the last answer's, so no decompression.
      const kept = await client.fetchCoins();
      expect({ unchanged: kept.unchanged, decompressed: calls() - before }).toEqual({ unchanged: true, decompressed: 1 });
      body = compress(Buffer.from(coins(false)), 4);
      const changed = await client.fetchCoins();
      const fresh = testClient(url);
      const want = await fresh.fetchCoins();
      await fresh.close();
      expect({ unchanged: changed.unchanged ?? false, records: changed.records, issues: changed.issues }).toEqual({ unchanged: false, records: want.records, issues: want.issues });
      expect(changed.records[0]?.networkList[0]?.withdrawIntegerMultiple).toBe('1E-8');
    } finally {
      await client.close();
    }
  });

  it('is capped after decompression: a small body that decompresses past the cap is too large, not read', async () => {
    encoding = 'gzip';
    body = gzipSync(Buffer.from(`[${' '.repeat(300_000)}]`));
    expect(body.length).toBeLessThan(2_000);
    const client = testClient(url, { maxBodyBytes: 100_000 });
    try {
      await expect(client.fetchCoins()).rejects.toMatchObject({ kind: 'body_too_large' });
    } finally {
      await client.close();
    }
  });

  it('that is not what it says it is fails as an answer that cannot be read, and the next good one is read', async () => {
    encoding = 'gzip';
    const client = testClient(url);
    try {
      body = Buffer.from(coins(true));
      await expect(client.fetchCoins()).rejects.toMatchObject({ kind: 'invalid_json' });
      body = gzipSync(Buffer.from(coins(true)));
      expect((await client.fetchCoins()).records.map((c) => c.coin)).toEqual(['USDT']);
    } finally {
      await client.close();
    }
  });
});
