import { Retention, DELIVERY_RETENTION_MS } from '../../src/runtime/retention';
import { SILENCE_RETENTION_MS } from '../../src/alerts/silence';
import { manualClock } from '../../src/lib/clock';
import { silentLogger } from '../../src/lib/logger';
import { manualScheduler } from '../../src/lib/scheduler';

const T0 = Date.UTC(2026, 11, 1);
const H = 3_600_000;

describe('retention on the injected scheduler', () => {
  it('prunes at start and at every tick against the clock then, with the history_retention in force; none after stop', () => {
    const clock = manualClock(T0);
    const scheduler = manualScheduler();
    const cutoffs: string[] = [];
    let historyMs = 30 * 24 * H;
    const retention = new Retention({
      store: {
        pruneChanges: (c) => (cutoffs.push(`changes ${T0 - c}`), 0),
        pruneDeliveries: (c) => void cutoffs.push(`deliveries ${T0 - c}`),
        pruneSilences: (c) => (cutoffs.push(`silences ${T0 - c}`), 0),
      },
      clock,
      logger: silentLogger(),
      historyMs: () => historyMs,
      onSilencesPruned: () => undefined,
      onError: () => undefined,
      scheduler,
    });
    retention.start();
    expect([cutoffs.splice(0), scheduler.tasks]).toEqual([[`changes ${30 * 24 * H}`, `deliveries ${DELIVERY_RETENTION_MS}`, `silences ${SILENCE_RETENTION_MS}`], 1]);
    // An hour on, after a reload shortened the history to a day.
    clock.advance(H);
    historyMs = 24 * H;
    scheduler.tick();
    expect(cutoffs.splice(0)).toEqual([`changes ${24 * H - H}`, `deliveries ${DELIVERY_RETENTION_MS - H}`, `silences ${SILENCE_RETENTION_MS - H}`]);
    retention.stop();
    scheduler.tick();
    expect([cutoffs, scheduler.tasks]).toEqual([[], 0]);
  });

  it('says when it pruned changes (other connections\' outage indexes read theirs again), and only then', () => {
    const clock = manualClock(T0);
    let removed = 0;
    const told: number[] = [];
    const retention = new Retention({
      store: { pruneChanges: () => removed, pruneDeliveries: () => undefined, pruneSilences: () => 0 },
      clock,
      logger: silentLogger(),
      historyMs: () => 24 * H,
      onSilencesPruned: () => undefined,
      onHistoryPruned: () => told.push(removed),
      onError: () => undefined,
      scheduler: manualScheduler(),
    });
    retention.prune();
    removed = 3;
    retention.prune();
    expect(told).toEqual([3]);
  });
});
