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
/** Takes the records of a parsed list as a decoder does: a remembered one as its value, the others remembered. */
function takeRecords(list: unknown, memory: RecordMemory<unknown>): void {
  if (Array.isArray(list)) {
    list.forEach((item: unknown, i) => {
      if (item instanceof Remembered) {
        memory.keepAgain(item);
        list[i] = structuredClone(item.value);
      } else if (typeof item === 'object' && item !== null) memory.keep(item, structuredClone(item));
    });
  }
  memory.commit();
}

async function splitRemembering(text: string, memory: RecordMemory<unknown>): Promise<{ value: unknown } | { threw: true }> {
  try {
    const value = await parseRecordsInTurns(text, (r) => JSON.parse(r) as unknown, (t) => JSON.parse(t) as unknown, turn, memory);
    takeRecords(Array.isArray(value) ? value : (value as { data?: unknown }).data, memory);
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

describe('records under a given path (Bybit\'s result.rows)', () => {
  const PATH = ['result', 'rows'];

  async function splitAt(text: string, memory?: RecordMemory<unknown>): Promise<{ value: unknown } | { threw: true }> {
    try {
      const value = await parseRecordsInTurns(text, (r) => JSON.parse(r) as unknown, (t) => JSON.parse(t) as unknown, turn, memory, PATH);
      const result = (value as { result?: { rows?: unknown } } | null)?.result;
      const list = typeof result === 'object' && result !== null ? result.rows : undefined;
      if (memory !== undefined && Array.isArray(list)) takeRecords(list, memory);
      return { value };
    } catch {
      return { threw: true };
    }
  }

  it.each([
    '{"retCode":0,"retMsg":"success","result":{"rows":[{"coin":"USDT"},{"coin":"BTC"}]},"retExtInfo":{},"time":1}',
    '{"result":{"category":"spot","rows":[]}}',
    ' { "result" : { "rows" : [ {"a":"]}"} , 2 ] } , "time" : "1" } ',
    // A key of the path sent again: JSON.parse keeps the last.
    '{"result":{"rows":[{"a":1}],"rows":[{"b":2}]}}',
    '{"result":{"rows":[{"a":1}]},"result":{"rows":[]}}',
    '{"result":{"rows":[{"a":1}]},"result":5}',
    '{"result":{"r\\u006fws":[{"a":1}]}}',
    '{"result":{"rows":[{"a":1}],"r\\u006fws":null}}',
    // Not where the path says: parsed whole.
    '{"result":[{"rows":[1]}]}',
    '{"result":{"rows":{"a":1}}}',
    '{"rows":[{"a":1}]}',
    '[{"a":1}]',
    '{"data":[{"a":1}]}',
    '{"retCode":10003,"retMsg":"API key is invalid.","result":{},"time":1}',
    // Not JSON.
    '{"result":{"rows":[{"a":1}]}',
    '{"result":{"rows":[{"a":1}]},}',
    '{"result":{"rows":[{"a":1}],}}',
    '{"result":{"rows":[{"a":1}] "x":1}}',
    '{"result":{"rows":[{"a":1},]}}',
  ])('%j reads as JSON.parse reads it', async (text) => {
    expect(await splitAt(text)).toEqual(whole(text));
  });

  it('finds the records there, and takes the remembered ones as they were', async () => {
    const memory = new RecordMemory<unknown>();
    const answer = (rows: string): string => `{"retCode":0,"result":{"rows":[${rows}]},"time":1}`;
    await splitAt(answer('{"coin":"USDT","name":"Tether","n":1},{"coin":"BTC","name":"Bitcoin","n":2}'), memory);
    expect(memory.size).toBe(2);
    const value = await parseRecordsInTurns(answer('{"coin":"BTC","name":"Bitcoin","n":2},{"coin":"ETH","name":"Ether","n":3}'), (r) => JSON.parse(r) as unknown, (t) => JSON.parse(t) as unknown, turn, memory, PATH);
    const rows = (value as { result: { rows: unknown[] } }).result.rows;
    expect(rows.map((r) => r instanceof Remembered)).toEqual([true, false]);
  });

  it('with the last answer remembered, reads any next answer (records moved, changed in place, damaged) as JSON.parse does', async () => {
    const record = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.dictionary(fc.constantFrom('a', 'rows', 'result', 'x"y'), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }));
    const envelope = (rows: unknown[], before: unknown, after: unknown): string => JSON.stringify({ retCode: 0, ...(before as object), result: { category: 'spot', rows, ...(after as object) }, time: 1 });
    const extra = fc.dictionary(fc.constantFrom('x', 'rows', 'result'), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 1 });
    const change = fc.record({ order: fc.array(fc.nat({ max: 5 }), { maxLength: 7 }), at: fc.nat(), char: fc.constantFrom('1', 'a', '"', ',', ']', '}', ' ', '\\'), how: fc.constantFrom('replace', 'insert', 'none') });
    await fc.assert(
      fc.asyncProperty(fc.array(record, { maxLength: 6 }), extra, extra, change, async (records, before, after, c) => {
        const memory = new RecordMemory<unknown>();
        const last = envelope(records, {}, {});
        expect(await splitAt(last, memory)).toEqual(whole(last));
        const picked = c.order.filter((i) => i < records.length).map((i) => records[i]);
        let next = envelope(picked, before, after);
        const at = c.at % (next.length + 1);
        if (c.how !== 'none') next = next.slice(0, at) + c.char + next.slice(c.how === 'replace' ? at + 1 : at);
        expect({ next, outcome: await splitAt(next, memory) }).toEqual({ next, outcome: whole(next) });
      }),
      { numRuns: 2000 },
    );
  });
});

describe('records that all begin alike (OKX\'s rows: keys in alphabetical order)', () => {
  const row = (ccy: string, chain: string): string => `{"canDep":true,"canInternal":true,"canWd":true,"ccy":"${ccy}","chain":"${ccy}-${chain}","minFee":"0.1"}`;
  const remembered = async (rows: string[], memory: RecordMemory<unknown>): Promise<boolean[]> => {
    const value = (await parseRecordsInTurns(`[${rows.join(',')}]`, (r) => JSON.parse(r) as unknown, (t) => JSON.parse(t) as unknown, turn, memory)) as unknown[];
    const found = value.map((item) => item instanceof Remembered);
    value.forEach((item) => {
      if (item instanceof Remembered) memory.keepAgain(item);
      else memory.keep(item as object, item);
    });
    memory.commit();
    return found;
  };

  it.each([
    ['a coin of two rows listed before them', ['X-A', 'X-B'], 0, 0],
    ['a coin of two rows delisted before them', [], 0, 2],
    ['a row listed in the middle', ['X-A'], 3, 0],
  ] as const)('are found in their places after %s', async (_name, listed, at, delisted) => {
    const memory = new RecordMemory<unknown>();
    const last = ['BTC-Bitcoin', 'BTC-Lightning', 'ETH-ERC20', 'ETH-Arbitrum One', 'USDT-ERC20', 'USDT-TRC20'].map((id) => row(id.split('-')[0] as string, id.split('-')[1] as string));
    await remembered(last, memory);
    const added = listed.map((id) => row(id.split('-')[0] as string, id.split('-')[1] as string));
    const next = [...last.slice(delisted, at + delisted), ...added, ...last.slice(at + delisted)];
    expect(await remembered(next, memory)).toEqual(next.map((r) => !added.includes(r)));
  });
});
