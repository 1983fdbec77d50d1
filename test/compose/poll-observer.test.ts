import { Writable } from 'node:stream';
import { Registry } from 'prom-client';
import { DaemonPollObserver, type DaemonObserverOptions } from '../../src/compose/poll-observer';
import { createLogger } from '../../src/lib/logger';
import { createMetrics } from '../../src/metrics/metrics';
import type { Change } from '../../src/snapshot/changes';
import { nextTurn } from '../../src/lib/timer';

/** The observer's change lines, as a log reader sees them. */
function observer(): { o: DaemonPollObserver; lines: Record<string, unknown>[]; observed: number[] } {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString('utf8').split('\n')) if (l !== '') lines.push(JSON.parse(l) as Record<string, unknown>);
      done();
    },
  });
  const observed: number[] = [];
  const parts = {
    logger: createLogger({ level: 'info', destination, format: 'json' }),
    metrics: createMetrics(new Registry()),
    views: { observe: (_exchange: string, changes: readonly Change[]) => observed.push(changes.length) },
  };
  return { o: new DaemonPollObserver(parts as unknown as DaemonObserverOptions), lines, observed };
}

const change = (i: number): Change => ({ kind: 'withdraw_disabled', exchange: 'main', coin: `C${i}`, network: 'TRX', before: 'true', after: 'false', at: 1_000 + i });

describe('the poll observer\'s log of changes', () => {
  it('logs a few changes one by one, at once', () => {
    const { o, lines, observed } = observer();
    o.changes('main', [0, 1, 2].map(change));
    expect(lines.map((l) => [l.msg, l.coin, l.exchange])).toEqual([['change', 'C0', 'main'], ['change', 'C1', 'main'], ['change', 'C2', 'main']]);
    expect(observed).toEqual([3]);
  });

  it('logs a storm\'s first 50 changes in order, 10 per turn of the event loop, then how many more', async () => {
    const { o, lines, observed } = observer();
    o.changes('main', Array.from({ length: 120 }, (_, i) => change(i)));
    // The views are told at once; the lines follow in later turns.
    expect([lines.length, observed]).toEqual([0, [120]]);
    // One part per turn (lib/timer's nextTurn takes turns in the order asked): 10 lines each.
    const counts: number[] = [];
    for (let turn = 0; turn < 6; turn++) {
      await nextTurn();
      counts.push(lines.length);
    }
    expect(counts).toEqual([10, 20, 30, 40, 51, 51]);
    expect(lines.slice(0, 50).map((l) => l.coin)).toEqual(Array.from({ length: 50 }, (_, i) => `C${i}`));
    expect(lines[50]).toMatchObject({ msg: 'more changes not logged one by one', exchange: 'main', more: 70 });
  });
});
