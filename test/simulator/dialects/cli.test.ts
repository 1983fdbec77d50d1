/** `spotwatch simulate --dialect NAME --api-key K --api-secret S [--passphrase P]`: the flags' usage errors. */
import { Writable } from 'node:stream';
import { main } from '../../../src/cli';

function capture(): { io: Parameters<typeof main>[1]; err: () => string } {
  let err = '';
  const sink = (append: (s: string) => void): Writable =>
    new Writable({
      write(chunk: Buffer, _enc, done) {
        append(chunk.toString());
        done();
      },
    });
  return { io: { stdout: sink(() => undefined), stderr: sink((s) => (err += s)), env: {} }, err: () => err };
}

describe('simulate --dialect', () => {
  it('names the dialects it speaks when given another', async () => {
    const { io, err } = capture();
    expect(await main(['simulate', '--dialect', 'ftx'], io)).toBe(2);
    expect(err()).toContain('--dialect takes one of spot-v3, binance, mexc, bitget, kucoin, gate, htx, okx, bybit, got "ftx"');
  });

  it('wants --api-key and --api-secret together', async () => {
    const { io, err } = capture();
    expect(await main(['simulate', '--dialect', 'okx', '--api-key', 'K', '--passphrase', 'P'], io)).toBe(2);
    expect(err()).toContain('--api-key and --api-secret go together');
  });
});
