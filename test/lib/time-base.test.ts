import { STEP_TOLERANCE_MS, TimeBase, wallSince } from '../../src/lib/time-base';
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
});
