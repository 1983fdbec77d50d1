/**
 * Duplicates. An answer may carry the same key twice (a coin, a network of a coin, a ticker
 * symbol). Copies that are identical field by field are one record. Copies that differ in any
 * field, or of which one is malformed, are ambiguous: no copy is taken (the first is no more
 * right than the last), the key gets one issue, and the merge keeps its previous value (or,
 * with none, leaves it out as unknown) exactly as for a malformed record. Reading "the first
 * copy says closed" as a closure raised false alerts. Identical means the merge's sameCoin /
 * sameNetwork / sameTicker: exact text, so a copy in another notation differs.
 */
import type { RecordIssue } from '../snapshot/model';

/** What became of a copy given to KeyedRecords.add. */
export type Copy =
  /** The first copy of its key: kept (until a disagreeing copy turns up). */
  | 'first'
  /** Identical to the first, or its key already set aside: nothing to report. */
  | 'repeat'
  /** The first copy that disagrees: the key is set aside, and the caller reports it once. */
  | 'conflict';

/** The records of one list (or one coin's networks) by key, duplicates resolved as above. */
export class KeyedRecords<T> {
  private readonly records: T[] = [];
  /** Per key, where its first copy is and that copy's own issues (a coin's networks), as text. */
  private readonly first = new Map<string, { at: number; issues: string }>();
  /** Keys with an issue (malformed, or copies that disagree): no copy is taken. */
  private ambiguous: Set<string> | undefined;

  constructor(
    private readonly key: (record: T) => string,
    private readonly same: (a: T, b: T) => boolean,
  ) {}

  /** A copy read well; `issues` are its own (an identical copy repeats them exactly). */
  add(record: T, issues: readonly RecordIssue[] = []): Copy {
    const key = this.key(record);
    const text = issues.length === 0 ? '' : issuesText(issues);
    const first = this.first.get(key);
    if (first === undefined) {
      this.first.set(key, { at: this.records.length, issues: text });
      this.records.push(record);
      return 'first';
    }
    if ((this.same(this.records[first.at] as T, record) && first.issues === text) || this.ambiguous?.has(key) === true) return 'repeat';
    this.setAside(key);
    return 'conflict';
  }

  /** A key with a malformed copy: none of its copies is taken. */
  setAside(key: string): void {
    (this.ambiguous ??= new Set()).add(key);
  }

  /** The records taken: the first copy of every key not set aside, in the order of the answer. */
  taken(): T[] {
    const ambiguous = this.ambiguous;
    return ambiguous === undefined ? this.records : this.records.filter((r) => !ambiguous.has(this.key(r)));
  }
}

/** Issues of one copy, as a comparable text. */
function issuesText(issues: readonly RecordIssue[]): string {
  return issues.map((i) => `${i.network ?? ''}\u0000${i.index}\u0000${i.reason}`).join('\u0001');
}
