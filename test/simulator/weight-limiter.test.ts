/** The sliding-window budget as a pure function of (ip, weight, now). */
import { createWeightLimiter } from '../../src/simulator/http/weight-limiter';

const limit = { max: 10, windowMs: 1_000, banAfter: 2, banMs: 5_000 };

describe('createWeightLimiter', () => {
  it('accepts while the window has room and reports the total', () => {
    const l = createWeightLimiter(limit);
    expect(l.take('a', 5, 0)).toEqual({ kind: 'ok', used: 5 });
    expect(l.take('a', 5, 100)).toEqual({ kind: 'ok', used: 10 });
  });

  it('refuses what would overflow, with the wait until enough weight leaves the window', () => {
    const l = createWeightLimiter(limit);
    l.take('a', 4, 0);
    l.take('a', 4, 300);
    expect(l.take('a', 4, 500)).toEqual({ kind: 'limited', used: 8, retryAfterMs: 500 });
    expect(l.take('a', 7, 500)).toEqual({ kind: 'limited', used: 8, retryAfterMs: 800 });
  });

  it('frees weight exactly one window after it was taken', () => {
    const l = createWeightLimiter(limit);
    l.take('a', 10, 0);
    expect(l.take('a', 1, 999).kind).toBe('limited');
    expect(l.take('a', 1, 1_000)).toEqual({ kind: 'ok', used: 1 });
  });

  it('tells a request heavier than the whole budget to wait a full window', () => {
    expect(createWeightLimiter(limit).take('a', 11, 0)).toEqual({ kind: 'limited', used: 0, retryAfterMs: 1_000 });
  });

  it('bans after more than banAfter refusals in a row, for banMs', () => {
    const l = createWeightLimiter(limit);
    l.take('a', 10, 0);
    expect(l.take('a', 1, 10).kind).toBe('limited');
    expect(l.take('a', 1, 20).kind).toBe('limited');
    expect(l.take('a', 1, 30)).toEqual({ kind: 'banned', used: 10, retryAfterMs: 5_000, until: 5_030 });
    expect(l.take('a', 1, 2_000)).toEqual({ kind: 'banned', used: 0, retryAfterMs: 3_030, until: 5_030 });
    expect(l.take('a', 1, 5_030)).toEqual({ kind: 'ok', used: 1 });
  });

  it('forgives refusals once a request is accepted', () => {
    const l = createWeightLimiter(limit);
    l.take('a', 10, 0);
    l.take('a', 1, 10);
    l.take('a', 1, 20);
    expect(l.take('a', 1, 1_000).kind).toBe('ok');
    l.take('a', 9, 1_001);
    expect(l.take('a', 1, 1_002).kind).toBe('limited');
  });

  it('keeps clients apart, and forgets everyone on reset', () => {
    const l = createWeightLimiter(limit);
    l.take('a', 10, 0);
    expect(l.take('b', 10, 0).kind).toBe('ok');
    l.reset();
    expect(l.take('a', 10, 1)).toEqual({ kind: 'ok', used: 10 });
  });
});
