/**
 * The records of the last answer to one request, by their exact text, with what each was
 * decoded to: a record of the next answer whose text is the same is taken as it was, neither
 * parsed, pre-passed nor validated again (DESIGN.md section 2, "Work follows change").
 *
 * Found by comparing text, never by a key read from it: the record at the same place in the
 * last answer first, then those a few places either side (records listed or delisted before
 * it), then any record of the last answer that begins the same way (a record that moved, a
 * list that grew). Measured at 4,000 coins (4 MB, notes/records.md): comparing
 * every record with its old text cost 0.4 ms, where scanning them cost 7 ms and hashing their
 * texts (a Map keyed by the whole text) 7 ms.
 *
 * An old record's text is a whole JSON object or array: when the answer has that text at a
 * record's start, the value there is exactly that text (its brackets close where they closed
 * before), so what follows is read as a scan of the answer would read it.
 */

/** A record of the last answer: its text and what it was decoded to. */
export class Remembered<V> {
  constructor(
    readonly text: string,
    readonly value: V,
    private readonly parseText: (text: string) => unknown,
  ) {}

  /** The record parsed again (for a decode whose context changed since: see the decode's loop). */
  parse(): unknown {
    return this.parseText(this.text);
  }
}

/**
 * Whether `text` has `part` at `at`. A slice and `===` is a native comparison of memory (0.4 ms
 * for every record of 4,000 coins); `text.startsWith(part, at)` compared character by character
 * (17 ms for the same, Node 20 and 22).
 */
function holds(text: string, at: number, part: string): boolean {
  return text.slice(at, at + part.length) === part;
}

/**
 * Whether a record of the answer may end at `end`: what follows it there is what follows a
 * record (a comma, the list's end, space). Most records of another length fail this without
 * the slice a comparison takes.
 */
function endsThere(text: string, end: number): boolean {
  const c = text.charCodeAt(end);
  return c === 44 || c === 93 || c === 32 || c === 10 || c === 13 || c === 9;
}

/** Characters of a record's beginning by which moved records are found (most records' key is in them: `{"symbol":"BTCUSDT","pr`). */
const PREFIX = 24;

/** Candidates kept per beginning: records alike for longer are found by place only (and parsed when they moved). */
const MAX_ALIKE = 4;

/**
 * Places either side of a record's own where it is looked for before its beginning is: records
 * listed or delisted before it (a coin of OKX's is a row per chain: two or three rows at once).
 * Each costs a comparison, which ends at the first character that differs.
 */
const NEAR = 4;

/** What the scan of an answer asks of the memory (lib/json-records.ts). */
export interface RecordTexts {
  /** Starts reading an answer whose records are parsed by `parse`. */
  begin(parse: (text: string) => unknown): void;
  /** The remembered record whose text the answer has at `at` (a record's start), or undefined. */
  match(text: string, at: number): Remembered<unknown> | undefined;
  /** A record parsed afresh, from `recordText`: remembered by its text once decoded (see keep). */
  parsed(raw: unknown, recordText: string): void;
}

/**
 * One request's memory. The scan asks `match` at each record and tells `parsed` what it
 * parsed; the decode tells `keep` what each record became and `commit`s once the whole answer
 * is decoded; an answer that fails is `abandon`ed and leaves the memory of the last good one.
 */
export class RecordMemory<V> implements RecordTexts {
  /** The last answer's remembered records, in order. */
  private last: Remembered<V>[] = [];
  /** Places in `last` by a record's first PREFIX characters; built when a record is not in its place. */
  private byPrefix: Map<string, number[]> | undefined;
  /** Where in `last` the next record is expected. */
  private cursor = 0;
  /** This answer's records, as decoded. */
  private next: Remembered<V>[] = [];
  /** This answer's records parsed afresh: their texts. */
  private readonly texts = new Map<object, string>();
  private parseText: (text: string) => unknown = (text) => JSON.parse(text);

  begin(parse: (text: string) => unknown): void {
    this.parseText = parse;
    this.cursor = 0;
    this.next = [];
    this.texts.clear();
  }

  match(text: string, at: number): Remembered<V> | undefined {
    const place = this.cursor;
    const here = this.last[place];
    if (here !== undefined && holds(text, at, here.text)) {
      this.cursor = place + 1;
      return this.again(here, text, at);
    }
    // A few records listed or delisted before this one: the rest of the answer is some places
    // off. Looked for near its place before by its beginning, which does not tell records apart
    // whose keys come after PREFIX characters (OKX's rows, keys in alphabetical order, all begin
    // `{"canDep":true,"canInter`): without this, one row listed made every later row a miss.
    for (let d = 1; d <= NEAR; d++) {
      const found = this.near(text, at, place + d) ?? this.near(text, at, place - d);
      if (found !== undefined) return found;
    }
    this.cursor = place + 1;
    const head = text.slice(at, at + PREFIX);
    // Begins as the record in its place (the same key, mostly): changed in its place, as most
    // changed records are (a price that moved); no other record is looked for.
    if (here !== undefined && here.text.length >= PREFIX && head === here.text.slice(0, PREFIX)) return undefined;
    const places = this.prefixes().get(head);
    if (places === undefined) return undefined;
    for (const p of places) {
      const old = this.last[p] as Remembered<V>;
      if (holds(text, at, old.text)) {
        this.cursor = p + 1;
        return this.again(old, text, at);
      }
    }
    return undefined;
  }

  parsed(raw: unknown, recordText: string): void {
    if (typeof raw === 'object' && raw !== null) this.texts.set(raw, recordText);
  }

  /** `raw`, a record parsed afresh in this answer, decoded to `value`: remembered (when it was parsed from a record's text). */
  keep(raw: object, value: V): void {
    const text = this.texts.get(raw);
    if (text !== undefined && text.length > 1 && (text.startsWith('{') || text.startsWith('['))) this.next.push(new Remembered(text, value, this.parseText));
  }

  /** A remembered record taken again as it was. */
  keepAgain(record: Remembered<V>): void {
    this.next.push(record);
  }

  /** The answer is decoded: its records are what the next answer is compared with. */
  commit(): void {
    this.last = this.next;
    this.next = [];
    this.byPrefix = undefined;
    this.cursor = 0;
    this.texts.clear();
  }

  /** The answer failed: what was read of it is forgotten (its text with it), the last good answer's records stay. */
  abandon(): void {
    this.next = [];
    this.cursor = 0;
    this.texts.clear();
  }

  /** Records remembered (for tests and measurements). */
  get size(): number {
    return this.last.length;
  }

  /**
   * `old`, its text now a slice of this answer: a slice keeps the whole text it was cut from,
   * and a record unchanged for a thousand polls would keep the answer it first came in (the
   * last answer's text is kept anyway, by the client).
   */
  private again(old: Remembered<V>, text: string, at: number): Remembered<V> {
    return new Remembered(text.slice(at, at + old.text.length), old.value, this.parseText);
  }

  /** The record at place `p` of the last answer, when the answer has its text at `at` (the cursor then follows it). */
  private near(text: string, at: number, p: number): Remembered<V> | undefined {
    const old = this.last[p];
    if (old === undefined || !endsThere(text, at + old.text.length) || !holds(text, at, old.text)) return undefined;
    this.cursor = p + 1;
    return this.again(old, text, at);
  }

  private prefixes(): Map<string, number[]> {
    if (this.byPrefix !== undefined) return this.byPrefix;
    const index = new Map<string, number[]>();
    this.last.forEach((r, i) => {
      if (r.text.length < PREFIX) return;
      const key = r.text.slice(0, PREFIX);
      const places = index.get(key);
      if (places === undefined) index.set(key, [i]);
      else if (places.length < MAX_ALIKE) places.push(i);
    });
    this.byPrefix = index;
    return index;
  }
}
