/**
 * An answer's body as text, read no further than a bound: what a service answers is never worth
 * a flood (a proxy's error page of megabytes, a hostile endpoint that never stops). Leaving the
 * loop early destroys the rest of the body, so the connection is not kept reading.
 */
export interface CappedRead {
  /** The most bytes read. */
  limit: number;
  /**
   * A body longer than `limit`: `cut` keeps its first `limit` bytes (a failure's words, quoted);
   * `refuse` gives undefined (an answer to parse, which a cut would make no answer at all).
   */
  over: 'cut' | 'refuse';
  /**
   * A connection broken in the middle of the body: `partial` gives what arrived before (the
   * status is known, the words are a bonus); `throw` fails the call as any transport error does.
   */
  broken: 'partial' | 'throw';
}

export function readCapped(body: AsyncIterable<Buffer>, read: CappedRead & { over: 'cut' }): Promise<string>;
export function readCapped(body: AsyncIterable<Buffer>, read: CappedRead): Promise<string | undefined>;
export async function readCapped(body: AsyncIterable<Buffer>, read: CappedRead): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      size += chunk.length;
      if (size > read.limit && read.over === 'refuse') return undefined;
      chunks.push(chunk);
      if (size >= read.limit && read.over === 'cut') break;
    }
  } catch (err) {
    if (read.broken === 'throw') throw err;
  }
  return Buffer.concat(chunks).subarray(0, read.limit).toString('utf8');
}
