import fc from 'fast-check';
import { parseRecordsInTurns, recordSpans } from '../../src/lib/json-records';
import { RecordMemory, Remembered } from '../../src/lib/record-memory';
import { parseJsonKeepingDecimals, parseJsonKeepingDecimalsInTurns } from '../../src/exchange/dialects/spot-v3/parse';

const turn = (): Promise<void> => Promise.resolve();

/** What JSON.parse makes of the text: the value, or that it threw. */
function whole(text: string): { value: unknown } | { threw: true } {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return { threw: true };
  }
}

async function split(text: string): Promise<{ value: unknown } | { threw: true }> {
  try {
    return { value: await parseRecordsInTurns(text, (r) => JSON.parse(r) as unknown, (t) => JSON.parse(t) as unknown, turn) };
  } catch {
    return { threw: true };
  }
}

/**
 * split, with the records of the last answer remembered: a record the memory holds stands as
 * its Remembered, taken here as what it was parsed to then; every object parsed afresh is
 * remembered with what it was parsed to.
 */
async function splitRemembering(text: string, memory: RecordMemory<unknown>): Promise<{ value: unknown } | { threw: true }> {
  try {
    const value = await parseRecordsInTurns(text, (r) => JSON.parse(r) as unknown, (t) => JSON.parse(t) as unknown, turn, memory);
    const list = Array.isArray(value) ? value : (value as { data?: unknown }).data;
    if (Array.isArray(list)) {
      list.forEach((item: unknown, i) => {
        if (item instanceof Remembered) {
          memory.keepAgain(item);
          list[i] = structuredClone(item.value);
        } else if (typeof item === 'object' && item !== null) memory.keep(item, structuredClone(item));
      });
    }
    memory.commit();
    return { value };
  } catch {
    return { threw: true };
  }
}

describe('records of a JSON answer, parsed one by one', () => {
  it.each([
    '[]',
    ' [ ] ',
    '[{"coin":"BTC","networkList":[{"network":"BTC","withdrawFee":"0.0005"}]},{"coin":"ETH","networkList":[]}]',
    '\n[\n  {"a": "quote \\" and ] and } and [ inside"},\n  {"b": "back\\\\"}, {"c": "\\\\\\"x"}\n]\n',
    '[1, "two", null, true, false, -3.5e+2, [1, [2]], {"x": {}}]',
    '{"code":0,"data":[{"symbol":"BTCUSDT"},{"symbol":"ETHUSDT"}],"msg":"ok"}',
    '{"msg":{"data":[1]},"data":[{"a":1}]}',
    '{"data":null,"data":[{"a":1}]}',
    '{"data":[{"a":1}],"data":"replaced"}',
    '{"data":[{"a":1}],"data":[]}',
    '{"data":[{"a":1}],"d\\u0061ta":[]}',
    '{"d\\u0061ta":[{"a":1}]}',
    '{"code":-1121,"msg":"Invalid symbol."}',
    '{"data":[]}',
    '"a string"',
    '42',
    '[{"emoji":"\\ud83d\\ude80 \u00e9"}]',
    // Not JSON: every one must throw, as JSON.parse does.
    '',
    '[',
    '[{"a":1}',
    '[{"a":1},]',
    '[,{"a":1}]',
    '[{"a":1}{"b":2}]',
    '[{"a":1]}',
    '[{"a":1}] x',
    '[{"a":"unterminated}]',
    '[{"a":tru}]',
    '{"data":[{"a":1}],}',
    '{"data":[{"a":1}]',
    '{"data" [1]}',
    'x[1]',
    '[01]',
    '[1 2]',
  ])('%j reads as JSON.parse reads it', async (text) => {
    expect(await split(text)).toEqual(whole(text));
  });

  it('finds each record of an array and of a `data` envelope by its exact text', () => {
    const text = '[ {"a":1} ,{"b":"]"}]';
    const found = recordSpans(text);
    expect(found?.spans.map(([s, e]) => text.slice(s, e))).toEqual(['{"a":1}', '{"b":"]"}']);
    expect(found?.skeleton).toBe('[]');
    const env = '{"code":0,"data":[{"x":[1,2]},3],"n":1}';
    const got = recordSpans(env);
    expect({ records: got?.spans.map(([s, e]) => env.slice(s, e)), skeleton: got?.skeleton, at: got?.at }).toEqual({
      records: ['{"x":[1,2]}', '3'],
      skeleton: '{"code":0,"data":[],"n":1}',
      at: 'data',
    });
    expect(recordSpans('{"code":0,"msg":"x"}')).toBeUndefined();
  });

  it('agrees with JSON.parse on 2,000 random answers and 2,000 damaged ones', async () => {
    let seed = 7;
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const strings = ['', 'a', '"', '\\', ']', '}', '[', '{', ',', ':', 'é', '\u2028', 'x"y\\"z'];
    const value = (depth: number): unknown => {
      const k = rand(depth > 2 ? 4 : 7);
      if (k === 0) return rand(2000) - 1000 + rand(100) / 100;
      if (k === 1) return strings[rand(strings.length)] as string;
      if (k === 2) return [null, true, false][rand(3)];
      if (k === 3) return `${strings[rand(strings.length)]}${rand(10)}`;
      if (k === 4) return Array.from({ length: rand(4) }, () => value(depth + 1));
      return Object.fromEntries(Array.from({ length: rand(4) }, (_, i) => [`${strings[rand(strings.length)]}${i}`, value(depth + 1)]));
    };
    const space = (): string => [' ', '', '\n', '\t', '  '][rand(5)] as string;
    const stringify = (v: unknown): string => {
      if (Array.isArray(v)) return `[${space()}${v.map(stringify).join(`${space()},${space()}`)}${space()}]`;
      if (v !== null && typeof v === 'object') return `{${space()}${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}${space()}:${space()}${stringify(x)}`).join(',')}${space()}}`;
      return JSON.stringify(v);
    };
    const bad = ['', ',', ']', '}', '[', '{', '"', '\\', ':', 'x'];
    let agreedDamaged = 0;
    for (let n = 0; n < 2000; n++) {
      const records = Array.from({ length: rand(6) }, () => value(0));
      const text = rand(2) === 0 ? stringify(records) : stringify({ code: 0, data: records, msg: 'ok' });
      expect(await split(text)).toEqual(whole(text));
      const at = rand(text.length + 1);
      const damaged = text.slice(0, at) + (bad[rand(bad.length)] as string) + text.slice(at + rand(2));
      const [a, b] = [await split(damaged), whole(damaged)];
      expect({ damaged, outcome: a }).toEqual({ damaged, outcome: b });
      if ('threw' in b) agreedDamaged++;
      // With the records of the undamaged answer remembered: the same, record texts taken as they were.
      const memory = new RecordMemory<unknown>();
      expect(await splitRemembering(text, memory)).toEqual(whole(text));
      expect({ damaged, outcome: await splitRemembering(damaged, memory) }).toEqual({ damaged, outcome: b });
      expect(await splitRemembering(text, memory)).toEqual(whole(text));
    }
    // The damage does break most answers: the comparison above is not only of valid ones.
    expect(agreedDamaged).toBeGreaterThan(1000);
  });

  it('with the last answer remembered, reads any next answer (records moved, changed in place, damaged) as JSON.parse does', async () => {
    const record = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.dictionary(fc.constantFrom('a', 'b', 'coin', 'x"y'), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }));
    const answer = fc.tuple(fc.array(record, { maxLength: 6 }), fc.boolean()).map(([records, envelope]) => ({ records, text: envelope ? JSON.stringify({ code: 0, data: records }) : JSON.stringify(records) }));
    const change = fc.record({ order: fc.array(fc.nat({ max: 5 }), { maxLength: 7 }), at: fc.nat(), char: fc.constantFrom('1', 'a', '"', ',', ']', '}', ' ', '\\'), how: fc.constantFrom('replace', 'insert', 'none') });
    await fc.assert(
      fc.asyncProperty(answer, change, async (last, c) => {
        const memory = new RecordMemory<unknown>();
        expect(await splitRemembering(last.text, memory)).toEqual(whole(last.text));
        // The next answer: some of the last records, in another order, some twice, one character changed somewhere.
        const picked = c.order.filter((i) => i < last.records.length).map((i) => last.records[i]);
        let next = JSON.stringify(picked);
        const at = c.at % (next.length + 1);
        if (c.how !== 'none') next = next.slice(0, at) + c.char + next.slice(c.how === 'replace' ? at + 1 : at);
        expect({ next, outcome: await splitRemembering(next, memory) }).toEqual({ next, outcome: whole(next) });
      }),
      { numRuns: 3000 },
    );
  });

  it('keeps exact decimals record by record, as the whole-answer pre-pass does', async () => {
    const text = '[{"coin":"A","networkList":[{"network":"X","withdrawIntegerMultiple":1E-8,"withdrawFee":0.10,"other":2}]},{"coin":"B","networkList":[]}]';
    const value = await parseJsonKeepingDecimalsInTurns(text, 'coins');
    expect(value).toEqual(parseJsonKeepingDecimals(text, 'coins'));
    expect(value).toEqual([
      { coin: 'A', networkList: [{ network: 'X', withdrawIntegerMultiple: '1E-8', withdrawFee: '0.10', other: 2 }] },
      { coin: 'B', networkList: [] },
    ]);
  });

  it('gives the event loop a turn between parts of a large answer', async () => {
    const record = JSON.stringify({ coin: 'X', pad: 'p'.repeat(1000) });
    const text = `[${Array.from({ length: 2000 }, () => record).join(',')}]`;
    let turns = 0;
    const value = await parseRecordsInTurns(text, (r) => JSON.parse(r) as unknown, (t) => JSON.parse(t) as unknown, () => {
      turns++;
      return Promise.resolve();
    });
    expect((value as unknown[]).length).toBe(2000);
    // 2 MB of records, a turn after every 512 KiB.
    expect(turns).toBe(3);
  });
});
