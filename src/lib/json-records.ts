/**
 * The records of a large JSON answer, located without building its tree: an exchange's coin
 * list is one array of 4,000 objects (4 MB), and one JSON.parse of it held the event loop for
 * 40-60 ms. Located, records can be parsed a part at a time, 512 KiB per turn of the event
 * loop, and a record whose text is that of the last answer's is not parsed at all
 * (lib/record-memory.ts).
 *
 * The scan only finds boundaries; JSON.parse still judges every byte: each run of records is
 * parsed (as one array), and the rest of the answer (the "skeleton", the answer with the array
 * emptied) too; a remembered record's text is one JSON.parse judged before. A text that is
 * valid JSON splits into exactly the values JSON.parse would read, and a text whose parts all
 * parse is valid JSON, so a split answer reads as the whole one would.
 */
import type { RecordTexts, Remembered } from './record-memory';

/** Where the records are: the array's brackets and each record's [start, end). */
export interface RecordSpans {
  /** Index of the array's `[`. */
  open: number;
  /** Index of the array's `]`. */
  close: number;
  /** Each record's text as text.slice(start, end). */
  spans: [number, number][];
  /** The answer with the array emptied: JSON that parses to the answer without its records. */
  skeleton: string;
  /** Where the array sits in the skeleton: the top level, or the `data` key of an object. */
  at: 'top' | 'data';
}

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const COMMA = 44;
const COLON = 58;

function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

function skipSpace(t: string, i: number): number {
  while (i < t.length && isSpace(t.charCodeAt(i))) i++;
  return i;
}

/** Index just past the string opening at i (t[i] is `"`), or -1. */
function skipString(t: string, i: number): number {
  let j = t.indexOf('"', i + 1);
  while (j !== -1) {
    let backslashes = 0;
    for (let k = j - 1; t.charCodeAt(k) === BACKSLASH; k--) backslashes++;
    if (backslashes % 2 === 0) return j + 1;
    j = t.indexOf('"', j + 1);
  }
  return -1;
}

/** Index just past the value starting at i, or -1. Brackets are counted, not matched: JSON.parse judges them. */
function skipValue(t: string, i: number): number {
  const c = t.charCodeAt(i);
  if (c === QUOTE) return skipString(t, i);
  if (c === OPEN_BRACE || c === OPEN_BRACKET) {
    let depth = 0;
    for (let j = i; j < t.length; j++) {
      const d = t.charCodeAt(j);
      if (d === QUOTE) {
        j = skipString(t, j);
        if (j === -1) return -1;
        j -= 1;
      } else if (d === OPEN_BRACE || d === OPEN_BRACKET) depth++;
      else if (d === CLOSE_BRACE || d === CLOSE_BRACKET) {
        depth--;
        if (depth === 0) return j + 1;
      }
    }
    return -1;
  }
  let j = i;
  while (j < t.length) {
    const d = t.charCodeAt(j);
    if (d === COMMA || d === CLOSE_BRACE || d === CLOSE_BRACKET || isSpace(d)) break;
    j++;
  }
  return j === i ? -1 : j;
}

/**
 * The records of the array starting at `open` (t[open] is `[`), one span at a time; returns the
 * index of its `]`, or -1 when the text is not such an array (parse it whole then). `knownEnd`
 * gives the end of a record known at a start without scanning it (-1: not known).
 */
function* walkArray(t: string, open: number, knownEnd?: (at: number) => number): Generator<[number, number], number, void> {
  let i = skipSpace(t, open + 1);
  if (t.charCodeAt(i) === CLOSE_BRACKET) return i;
  for (;;) {
    const known = knownEnd === undefined ? -1 : knownEnd(i);
    const end = known === -1 ? skipValue(t, i) : known;
    if (end === -1) return -1;
    yield [i, end];
    i = skipSpace(t, end);
    const c = t.charCodeAt(i);
    if (c === CLOSE_BRACKET) return i;
    if (c !== COMMA) return -1;
    i = skipSpace(t, i + 1);
  }
}

/** The records of the array starting at `open`, or undefined when it is not one. */
function arraySpans(t: string, open: number): { close: number; spans: [number, number][] } | undefined {
  const spans: [number, number][] = [];
  const walk = walkArray(t, open);
  for (let step = walk.next(); ; step = walk.next()) {
    if (step.done === true) return step.value === -1 ? undefined : { close: step.value, spans };
    spans.push(step.value);
  }
}

/** Where the records' array is: the keys from the answer's top to it ([]: the answer is the array). */
export type RecordsAt = readonly string[];

const TOP: RecordsAt = [];
const DATA: RecordsAt = ['data'];

/**
 * Where the records' array opens: given `path`, under those keys (Bybit's `result.rows`);
 * else at the top level, or under the first `data` key of an object whose value is an array.
 */
function locateArray(text: string, path?: RecordsAt): { open: number; path: RecordsAt } | undefined {
  if (path !== undefined) {
    const open = openAt(text, path);
    return open === undefined ? undefined : { open, path };
  }
  const start = skipSpace(text, 0);
  if (text.charCodeAt(start) === OPEN_BRACKET) return { open: start, path: TOP };
  const open = memberAt(text, start, (key, value) => key === 'data' && text.charCodeAt(value) === OPEN_BRACKET);
  return open === undefined ? undefined : { open, path: DATA };
}

/** Where the array under `path` opens (the first member of each key), or undefined when there is none. */
function openAt(text: string, path: RecordsAt): number | undefined {
  let i: number | undefined = skipSpace(text, 0);
  for (const want of path) {
    i = memberAt(text, i, (key) => key === want);
    if (i === undefined) return undefined;
  }
  return text.charCodeAt(i) === OPEN_BRACKET ? i : undefined;
}

/**
 * Where the value of the first member of the object opening at `i` that `take` takes (given its
 * key and where its value starts) starts; undefined when none does, or the object is not one.
 */
function memberAt(text: string, i: number, take: (key: string | undefined, value: number) => boolean): number | undefined {
  if (text.charCodeAt(i) !== OPEN_BRACE) return undefined;
  i = skipSpace(text, i + 1);
  while (text.charCodeAt(i) === QUOTE) {
    const keyEnd = skipString(text, i);
    if (keyEnd === -1) return undefined;
    const key = keyOf(text.slice(i, keyEnd));
    i = skipSpace(text, keyEnd);
    if (text.charCodeAt(i) !== COLON) return undefined;
    i = skipSpace(text, i + 1);
    if (take(key, i)) return i;
    const end = skipValue(text, i);
    if (end === -1) return undefined;
    i = skipSpace(text, end);
    if (text.charCodeAt(i) !== COMMA) return undefined;
    i = skipSpace(text, i + 1);
  }
  return undefined;
}

/**
 * The answer with the array (found closing at `close`) emptied, when it is usable split: no
 * key of the path is sent again later in its object (JSON.parse keeps the last).
 */
function skeletonOf(text: string, open: number, close: number, path: RecordsAt): string | undefined {
  let i = close + 1;
  for (let level = path.length - 1; level >= 0; level--) {
    const end = endOfMembers(text, i, path[level] as string);
    if (end === -1) return undefined;
    i = end + 1;
  }
  return `${text.slice(0, open)}[]${text.slice(close + 1)}`;
}

/**
 * Locates the records of an answer that is an array, or an object whose `data` is an array
 * (the first such key). Undefined when the answer is neither: parse it whole.
 */
export function recordSpans(text: string): RecordSpans | undefined {
  const where = locateArray(text);
  if (where === undefined) return undefined;
  const found = arraySpans(text, where.open);
  if (found === undefined) return undefined;
  const skeleton = skeletonOf(text, where.open, found.close, where.path);
  return skeleton === undefined ? undefined : { open: where.open, close: found.close, spans: found.spans, at: where.path.length === 0 ? 'top' : 'data', skeleton };
}

/** A key as JSON.parse reads it (`"d\u0061ta"` is `data`); undefined when it is not a string. */
function keyOf(text: string): string | undefined {
  if (!text.includes('\\')) return text.slice(1, -1);
  try {
    return JSON.parse(text) as string;
  } catch {
    return undefined;
  }
}

/**
 * Where the object whose member ends at i closes (the index of its `}`), reading the members
 * after it; -1 when one of them is `key` again, or the text there is not such members.
 */
function endOfMembers(t: string, i: number, key: string): number {
  i = skipSpace(t, i);
  while (t.charCodeAt(i) === COMMA) {
    i = skipSpace(t, i + 1);
    const keyEnd = t.charCodeAt(i) === QUOTE ? skipString(t, i) : -1;
    if (keyEnd === -1 || keyOf(t.slice(i, keyEnd)) === key) return -1;
    i = skipSpace(t, keyEnd);
    if (t.charCodeAt(i) !== COLON) return -1;
    const end = skipValue(t, skipSpace(t, i + 1));
    if (end === -1) return -1;
    i = skipSpace(t, end);
  }
  return t.charCodeAt(i) === CLOSE_BRACE ? i : -1;
}

/** Characters of records parsed per turn of the event loop by parseRecordsInTurns. */
const CHARS_PER_TURN = 512 * 1024;

/**
 * Parses an answer, its records `parseRecord`'s way, yielding to the event loop (`turn`)
 * after every CHARS_PER_TURN characters of records (located and parsed as it goes: locating
 * 4 MB at once held the loop 20 ms). An answer that is not an array of records (or an object
 * with one under `data`; given `path`, with one under those keys) is parsed whole by
 * `parseWhole`. Throws what JSON.parse throws for a text that is not JSON.
 *
 * With `memory` (the last answer's records, see lib/record-memory.ts), a record whose text the
 * memory holds is neither scanned nor parsed: it stands in the result as the memory's
 * `Remembered`, for the decode to take as it was.
 */
export async function parseRecordsInTurns(
  text: string,
  parseRecord: (record: string) => unknown,
  parseWhole: (text: string) => unknown,
  turn: () => Promise<void>,
  memory?: RecordTexts,
  path?: RecordsAt,
): Promise<unknown> {
  const where = locateArray(text, path);
  if (where === undefined) return parseWhole(text);
  memory?.begin(parseRecord);
  const records: unknown[] = [];
  let chars = 0;
  // The memory's record at each start, when it has one (then the walk does not scan it).
  let known: Remembered<unknown> | undefined;
  const endOfKnown = memory === undefined ? undefined : (at: number): number => {
    known = memory.match(text, at);
    return known === undefined ? -1 : at + known.text.length;
  };
  // Records to parse, side by side in the answer: parsed as one array (one JSON.parse of a
  // run of records costs what a whole answer's parse costs; one per record cost 1.6x that).
  let run: [number, number][] = [];
  const parseRun = (): void => {
    if (run.length === 0) return;
    const from = (run[0] as [number, number])[0];
    const to = (run[run.length - 1] as [number, number])[1];
    // The records and what separates them (commas and space, as the walk found): an array of exactly those records.
    const raws = run.length === 1 ? [parseRecord(text.slice(from, to))] : (parseRecord(`[${text.slice(from, to)}]`) as unknown[]);
    run.forEach(([start, end], k) => {
      const raw = raws[k];
      memory?.parsed(raw, text.slice(start, end));
      records.push(raw);
    });
    run = [];
  };
  const walk = walkArray(text, where.open, endOfKnown);
  let step = walk.next();
  for (; step.done !== true; step = walk.next()) {
    if (chars >= CHARS_PER_TURN) {
      parseRun();
      chars = 0;
      await turn();
    }
    if (known !== undefined) {
      parseRun();
      records.push(known);
      known = undefined;
      continue;
    }
    const [start, end] = step.value;
    run.push([start, end]);
    chars += end - start;
  }
  const close = step.value;
  if (close === -1) return parseWhole(text);
  parseRun();
  const skeletonText = skeletonOf(text, where.open, close, where.path);
  if (skeletonText === undefined) return parseWhole(text);
  const skeleton = parseWhole(skeletonText);
  if (where.path.length === 0) return records;
  // The objects down the path, as the skeleton parsed them (the path's keys are the first of their objects, and the last).
  let parent = skeleton as Record<string, unknown>;
  for (const key of where.path.slice(0, -1)) parent = parent[key] as Record<string, unknown>;
  parent[where.path[where.path.length - 1] as string] = records;
  return skeleton;
}
