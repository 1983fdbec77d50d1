import fc from 'fast-check';
import { stringifyInParts } from '../../src/lib/json-parts';

function run(value: object, key: string, per: number): { text: string; steps: number } {
  const steps = stringifyInParts(value, key, per);
  for (let n = 0; ; n++) {
    const s = steps.next();
    if (s.done === true) return { text: s.value, steps: n };
  }
}

describe('stringifyInParts', () => {
  it('gives JSON.stringify\'s text for any object and list, whatever the part size', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.array(fc.jsonValue(), { maxLength: 30 }), fc.integer({ min: 1, max: 7 }), fc.boolean(), (head, list, per, last) => {
        const value = last ? { ...head, alerts: list } : { alerts: list, ...head, zz: 1 };
        expect(run(value, 'alerts', per).text).toBe(JSON.stringify(value));
      }),
      { numRuns: 2_000 },
    );
  });

  it('takes a step per part of the list when the list is the last key, and one otherwise', () => {
    const alerts = Array.from({ length: 25 }, (_, i) => ({ n: i, s: 'a"b\u2028' }));
    expect(run({ version: '4', alerts }, 'alerts', 10)).toEqual({ text: JSON.stringify({ version: '4', alerts }), steps: 3 });
    expect(run({ alerts, version: '4' }, 'alerts', 10)).toEqual({ text: JSON.stringify({ alerts, version: '4' }), steps: 0 });
    expect(run({ version: '4', alerts: 'none' }, 'alerts', 10).steps).toBe(0);
    expect(run({ version: '4', alerts: alerts.slice(0, 10) }, 'alerts', 10).steps).toBe(0);
  });

  it('keeps a string in the other keys that looks like the list\'s place', () => {
    const value = { note: '"alerts":[]}', alerts: [1, 2, 3] };
    expect(run(value, 'alerts', 1)).toEqual({ text: JSON.stringify(value), steps: 3 });
  });
});
