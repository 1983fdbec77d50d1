import { createServer, type Server } from 'node:http';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import type { CoinRecord } from '../../src/snapshot/model';
import { closeServer, listenLoopback } from '../support/loopback';
import { testClient } from './test-client';

/**
 * An answer whose bytes are those of the last answer to the same request costs a comparison:
 * the client gives back what that answer decoded to, flagged `unchanged`. Whatever the sequence
 * of answers, the records and issues are exactly those a client reading every answer afresh
 * gives.
 */

/** A coin list body from a few coins whose fields vary, with a malformed network or a duplicate now and then. */
function coinsBody(variant: number): string {
  const coins = [0, 1, 2].map((c) => ({
    coin: `C${c}`,
    depositAllEnable: true,
    withdrawAllEnable: variant % 3 !== c,
    name: `Coin ${c}`,
    networkList: [
      {
        network: 'N',
        coin: `C${c}`,
        depositEnable: true,
        withdrawEnable: variant % 3 !== c,
        withdrawFee: variant === 4 ? 'not a number' : `0.${variant}${c}`,
        withdrawMin: '1',
        withdrawIntegerMultiple: 1e-8,
        depositDesc: null,
        withdrawDesc: variant === 2 ? 'maintenance <b>' : null,
      },
      ...(variant === 5 ? [{ network: 'N', coin: `C${c}`, depositEnable: false, withdrawEnable: true }] : []),
    ],
  }));
  return JSON.stringify(variant === 6 ? [...coins].reverse() : coins).replace('1e-8', '1E-8');
}

describe('an answer with the bytes of the last one', () => {
  let server: Server;
  let url: string;
  let body = coinsBody(0);
  beforeAll(async () => {
    server = createServer((_req, res) => res.setHeader('content-type', 'application/json').end(body));
    url = await listenLoopback(server);
  });
  afterAll(() => closeServer(server));

  it('is not read again: the same records, flagged unchanged; a changed one is read', async () => {
    const client = testClient(url);
    body = coinsBody(1);
    const first = await client.fetchCoins();
    const again = await client.fetchCoins();
    expect(first.unchanged).toBeUndefined();
    expect(again.unchanged).toBe(true);
    expect(again.records.length).toBe(3);
    again.records.forEach((r, i) => expect(r).toBe(first.records[i]));
    body = coinsBody(2);
    const changed = await client.fetchCoins(undefined, new Map(again.records.map((c) => [c.coin, c])));
    expect(changed.unchanged).toBeUndefined();
    expect(changed.records.map((c) => c.networkList[0]?.withdrawDesc)).toEqual(['maintenance <b>', 'maintenance <b>', 'maintenance <b>']);
    await client.close();
  });

  it('in a changed answer, gives back each unchanged coin as its previous object, wherever it moved', async () => {
    const client = testClient(url);
    const coins = (withdrawFee: string): unknown[] => (JSON.parse(coinsBody(0)) as { coin: string; networkList: { withdrawFee: string }[] }[]).map((c) => (c.coin === 'C1' ? { ...c, networkList: c.networkList.map((n) => ({ ...n, withdrawFee })) } : c));
    body = JSON.stringify(coins('0.5'));
    const first = await client.fetchCoins();
    body = JSON.stringify(coins('0.6').reverse());
    const next = await client.fetchCoins(undefined, new Map(first.records.map((c) => [c.coin, c])));
    expect(next.unchanged).toBeUndefined();
    expect(next.records.map((c) => c.coin)).toEqual(['C2', 'C1', 'C0']);
    expect(next.records[0]).toBe(first.records[2]);
    expect(next.records[2]).toBe(first.records[0]);
    expect(next.records[1]).not.toBe(first.records[1]);
    expect(next.records[1]?.networkList[0]?.withdrawFee).toBe('0.6');
    await client.close();
  });

  it('gives, for any sequence of answers, the records and issues of a client that reads every answer afresh', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 12 }), async (variants) => {
        const kept = testClient(url);
        let previous: Map<string, CoinRecord> | undefined;
        for (const v of variants) {
          body = coinsBody(v);
          const got = await kept.fetchCoins(undefined, previous);
          const fresh = testClient(url);
          const want = await fresh.fetchCoins();
          await fresh.close();
          expect({ records: got.records, issues: got.issues }).toEqual({ records: want.records, issues: want.issues });
          previous = new Map(got.records.map((c) => [c.coin, c]));
        }
        await kept.close();
      }),
      { numRuns: 40 },
    );
  });
});

describe('the bytes of an answer compared with the last answer’s as they arrive', () => {
  let server: Server;
  let url: string;
  let body = '';
  let gzip = false;
  beforeAll(async () => {
    // The body in pieces of 7 bytes, gzipped or not: the comparison meets chunk boundaries anywhere.
    server = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      let bytes = Buffer.from(body);
      if (gzip) {
        res.setHeader('content-encoding', 'gzip');
        bytes = gzipSync(bytes);
      }
      for (let i = 0; i < bytes.length; i += 7) res.write(bytes.subarray(i, i + 7));
      res.end();
    });
    url = await listenLoopback(server);
  });
  afterAll(() => closeServer(server));

  it.each([
    { name: 'the same bytes', next: (b: string) => b, unchanged: true },
    { name: 'one byte changed near the end, same length', next: (b: string) => b.replace('"Coin 2"', '"Coin 3"'), unchanged: false },
    { name: 'the same bytes and more', next: (b: string) => b.replace(/]$/, ',{"coin":"C9","depositAllEnable":true,"withdrawAllEnable":true,"networkList":[]}]'), unchanged: false },
    { name: 'a shorter answer whose bytes begin the last one', next: (b: string) => `${b.slice(0, b.lastIndexOf(',{"coin"'))}]`, unchanged: false },
  ])('$name (plain and gzipped): unchanged $unchanged, and exactly what a fresh read gives', async ({ next, unchanged }) => {
    for (const z of [false, true]) {
      gzip = z;
      const client = testClient(url);
      body = coinsBody(1);
      await client.fetchCoins();
      body = next(coinsBody(1));
      const got = await client.fetchCoins();
      const fresh = testClient(url);
      const want = await fresh.fetchCoins();
      await Promise.all([client.close(), fresh.close()]);
      expect({ unchanged: got.unchanged ?? false, records: got.records, issues: got.issues }).toEqual({ unchanged, records: want.records, issues: want.issues });
    }
  });
});
