import { inTurns, nextTurn, timerDelay, MAX_TIMER_DELAY_MS } from '../../src/lib/timer';

describe('nextTurn: parts of concurrent work take turns, one per iteration of the event loop', () => {
  it('runs the parts of two pieces of work alternately, each in its own iteration', async () => {
    let iteration = 0;
    let ticking = true;
    const tick = (): void => {
      iteration += 1;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const parts: string[] = [];
    const seenAt: number[] = [];
    const work = async (name: string): Promise<void> => {
      for (let k = 0; k < 3; k++) {
        await nextTurn();
        parts.push(`${name}${k}`);
        seenAt.push(iteration);
      }
    };
    await Promise.all([work('a'), work('b')]);
    ticking = false;
    expect(parts).toEqual(['a0', 'b0', 'a1', 'b1', 'a2', 'b2']);
    // Six parts, six different iterations of the loop: never two parts back to back.
    expect(new Set(seenAt).size).toBe(6);
  });

  it('lets I/O in between parts: a socket answer is read before the next part runs', async () => {
    const { createServer } = await import('node:net');
    const server = createServer((s) => s.end('x'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    const { connect } = await import('node:net');
    const log: string[] = [];
    const socket = connect(port, '127.0.0.1');
    socket.on('data', () => log.push('data'));
    const closed = new Promise((r) => socket.on('close', r));
    // Parts run until the answer has been read; a loop that never yielded to I/O would spin here forever.
    let parts = 0;
    while (!log.includes('data') && parts < 100_000) {
      await nextTurn();
      parts++;
    }
    await closed;
    server.close();
    expect(log).toEqual(['data']);
    expect(parts).toBeGreaterThan(0);
  });

  it('inTurns gives each yield of a generator its own turn and returns its value', async () => {
    function* steps(): Generator<void, number> {
      yield;
      yield;
      return 42;
    }
    expect(await inTurns(steps())).toBe(42);
  });

  it('resumes every part of long concurrent work, in turn: none is lost or starved past the compaction of its queue', async () => {
    // 5 pieces of work asking for 1,000 turns each: the queue is compacted past 1,024 entries
    // while others still wait in it; each piece must see all of its turns, interleaved.
    const order: number[] = [];
    await Promise.all(Array.from({ length: 5 }, async (_, w) => {
      for (let k = 0; k < 1000; k++) {
        await nextTurn();
        order.push(w);
      }
    }));
    expect(order).toHaveLength(5000);
    expect(order.slice(0, 10)).toEqual([0, 1, 2, 3, 4, 0, 1, 2, 3, 4]);
    expect(order.slice(-5)).toEqual([0, 1, 2, 3, 4]);
  });

  it('bounds timer delays to what setTimeout honours', () => {
    expect([timerDelay(-1), timerDelay(Number.NaN), timerDelay(5), timerDelay(2 ** 40)]).toEqual([0, 0, 5, MAX_TIMER_DELAY_MS]);
  });
});
