import { STEP_TOLERANCE_MS, TimeBase, anchorOf, anchoredClock, wallSince } from '../../src/lib/time-base';
import { steppingClock } from '../support/stepping-clock';
import { capturedLogger } from '../support/log-capture';

const T = Date.parse('2026-05-01T12:00:00Z');

describe('TimeBase', () => {
  it('reads both clocks together, and logs a step of the wall clock once, with its size', async () => {
    const clock = steppingClock(T);
    const { logger, lines } = capturedLogger('info');
    const time = new TimeBase(clock, logger);
    expect(time.read()).toEqual({ wall: T, mono: 1_000_000 });
    clock.advance(5_000);
    clock.step(-3_600_000);
    expect(time.read()).toEqual({ wall: T + 5_000 - 3_600_000, mono: 1_005_000 });
    clock.advance(1_000);
    time.read();
    clock.step(90_000);
    time.read();
    await new Promise((r) => setImmediate(r));
    expect(lines.map((l) => [l.msg, l.stepMs, l.from, l.to])).toEqual([
      ['clock stepped', -3_600_000, '2026-05-01T12:00:05.000Z', '2026-05-01T11:00:05.000Z'],
      ['clock stepped', 90_000, '2026-05-01T11:00:06.000Z', '2026-05-01T11:01:36.000Z'],
    ]);
  });

  it('takes a drift within the tolerance for none', async () => {
    const clock = steppingClock(T);
    const { logger, lines } = capturedLogger('info');
    const time = new TimeBase(clock, logger);
    time.read();
    clock.advance(60_000);
    clock.step(STEP_TOLERANCE_MS);
    time.read();
    clock.step(-STEP_TOLERANCE_MS);
    time.read();
    await new Promise((r) => setImmediate(r));
    expect(lines).toEqual([]);
  });

  it('counts a stored time ahead of now as just now', () => {
    expect(wallSince(T + 3_600_000, T)).toBe(0);
    expect(wallSince(T - 90_000, T)).toBe(90_000);
  });

  it('notices a step through an anchored clock: it reads the wall clock itself', async () => {
    const clock = steppingClock(T);
    const { logger, lines } = capturedLogger('info');
    const time = new TimeBase(anchoredClock(clock), logger);
    time.read();
    clock.advance(1_000);
    clock.step(3_600_000);
    expect(time.read()).toEqual({ wall: T + 1_000 + 3_600_000, mono: 1_001_000 });
    await new Promise((r) => setImmediate(r));
    expect(lines.map((l) => [l.msg, l.stepMs])).toEqual([['clock stepped', 3_600_000]]);
  });
});

describe('anchoredClock', () => {
  it.each([
    ['forward', 3_600_000],
    ['back', -3_600_000],
  ])('is the wall clock at its anchor plus the monotonic time since: stepped %s an hour, the times it gives move as much as time passed', (_way, stepMs) => {
    const clock = steppingClock(T);
    const anchored = anchoredClock(clock);
    expect(anchored.now()).toBe(T);
    clock.advance(8_000);
    clock.step(stepMs);
    clock.advance(2_000);
    expect([anchored.now(), anchored.monotonic(), anchored.wall?.()]).toEqual([T + 10_000, 1_010_000, T + 10_000 + stepMs]);
  });

  it('gives one time line to every clock anchored at the same instant (the threads of a process)', () => {
    const clock = steppingClock(T);
    const anchor = anchorOf(clock);
    expect(anchor).toEqual({ wall: T, mono: 1_000_000 });
    clock.step(-3_600_000);
    clock.advance(500);
    // A thread started after the step, given the main thread's anchor.
    expect(anchoredClock(clock, anchor).now()).toBe(T + 500);
  });

  it('gives whole milliseconds', () => {
    let mono = 0.25;
    const anchored = anchoredClock({ now: () => T, monotonic: () => mono });
    mono = 1_000.75;
    expect(anchored.now()).toBe(T + 1_001);
  });
});
