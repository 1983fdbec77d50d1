import type { Clock } from '../../src/lib/clock';

/**
 * A clock a test moves by hand, both ways: `advance` lets time pass (both clocks move), `step`
 * moves the wall clock alone (an NTP correction, a VM resumed, a wrong clock fixed).
 */
export function steppingClock(wall: number): Clock & { advance(ms: number): void; step(ms: number): void } {
  let mono = 1_000_000;
  return {
    now: () => wall,
    monotonic: () => mono,
    advance(ms) {
      wall += ms;
      mono += ms;
    },
    step(ms) {
      wall += ms;
    },
  };
}
