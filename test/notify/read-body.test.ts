import { readCapped } from '../../src/notify/kit/read-body';

async function* chunks(...parts: string[]): AsyncIterable<Buffer> {
  for (const p of parts) yield Buffer.from(p);
}

async function* broken(...parts: string[]): AsyncIterable<Buffer> {
  yield* chunks(...parts);
  throw new Error('socket hang up');
}

describe('readCapped: an answer read no further than its bound', () => {
  it('reads a body within the bound whole, whichever way an overflow is taken', async () => {
    await expect(readCapped(chunks('ab', 'cd'), { limit: 4, over: 'cut', broken: 'throw' })).resolves.toBe('abcd');
    await expect(readCapped(chunks('ab', 'cd'), { limit: 4, over: 'refuse', broken: 'throw' })).resolves.toBe('abcd');
  });

  it('cuts a longer body at the bound, and stops reading there', async () => {
    let read = 0;
    async function* counted(): AsyncIterable<Buffer> {
      for (const p of ['abc', 'def', 'ghi']) {
        read++;
        yield Buffer.from(p);
      }
    }
    await expect(readCapped(counted(), { limit: 4, over: 'cut', broken: 'throw' })).resolves.toBe('abcd');
    expect(read).toBe(2);
  });

  it('refuses a longer body: undefined, not a cut answer', async () => {
    await expect(readCapped(chunks('abc', 'de'), { limit: 4, over: 'refuse', broken: 'throw' })).resolves.toBeUndefined();
  });

  it('gives what arrived before a broken connection, or fails with it', async () => {
    await expect(readCapped(broken('ab'), { limit: 10, over: 'cut', broken: 'partial' })).resolves.toBe('ab');
    await expect(readCapped(broken('ab'), { limit: 10, over: 'cut', broken: 'throw' })).rejects.toThrow('socket hang up');
  });
});
