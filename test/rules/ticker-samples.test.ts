import { TickerHistory } from '../../src/rules/ticker-samples';
import { tickerRecord } from '../support/records';

describe('TickerHistory', () => {
  it('keeps samples spread over the whole window however often it polls, and finds the reference', () => {
    const h = new TickerHistory(120_000); // spacing 1 s
    for (let t = 0; t <= 600_000; t += 150) h.record([tickerRecord('X', { lastPrice: String(100 + t / 60_000) })], t);
    const samples = h.symbols.get('X')?.samples ?? [];
    expect(samples.length).toBeGreaterThan(100);
    expect(samples.length).toBeLessThanOrEqual(140); // about 120 per window
    expect(samples[0]?.at).toBeGreaterThanOrEqual(480_000);
    // Five minutes back from t = 600 s: the first sample at or after 540 s.
    const ref = h.reference('X', 540_000);
    expect(ref?.at).toBeGreaterThanOrEqual(540_000);
    expect(ref?.at).toBeLessThan(541_200);
    expect(ref?.price).toBeCloseTo(109, 1);
  });

  it('records when lastPrice, count and volume last changed', () => {
    const h = new TickerHistory(0);
    h.record([tickerRecord('X', { count: 1 })], 0);
    h.record([tickerRecord('X', { count: 1, closeTime: 5 })], 1000);
    expect(h.unchangedSince('X')).toBe(0);
    h.record([tickerRecord('X', { count: 2 })], 2000);
    expect(h.unchangedSince('X')).toBe(2000);
    expect(h.symbols.get('X')?.samples).toEqual([]);
  });
});
