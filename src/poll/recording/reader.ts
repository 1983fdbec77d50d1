/**
 * A recording read back, segment by segment in order, record by record as the segments
 * decompress (a segment is never read into memory whole). A segment cut short (the one being
 * written, or the last one of a daemon killed with -9) reads up to its last whole record; a
 * damaged one up to where it is damaged. Either way the segment is reported not `complete`: the next one
 * begins with the state reached, and a replay starts again from it.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { constants, createGunzip } from 'node:zlib';
import type { AnswerText } from '../../exchange/watch-list';
import { errorMessage } from '../../lib/error-message';
import { FORMAT_VERSION, parseRecord, type EndRecord, type Recorded } from './format';
import { listSegments, type Segment } from './segments';

/** A directory that is not a recording (missing, unreadable, without segments, of another format version). */
export class RecordingError extends Error {
  override readonly name = 'RecordingError';
}

/** A record as read back (a segment's `end` is its `complete`). */
export type Entry = Exclude<Recorded, EndRecord>;

export type Read =
  /** A record; an answer's bodies with it, in order (`same` ones resolved to their bytes). */
  | { kind: 'record'; segment: Segment; record: Entry; answers: AnswerText[] }
  /** The end of a segment: `complete` when it was read to its end; else why not. */
  | { kind: 'end'; segment: Segment; complete: boolean; reason?: string };

/** The records of the recording in `dir`, in order. Throws RecordingError before the first when `dir` is not a recording. */
export async function* readRecording(dir: string): AsyncGenerator<Read> {
  const segments = await segmentsOf(dir);
  for (const segment of segments) yield* readSegment(segment);
}

async function segmentsOf(dir: string): Promise<Segment[]> {
  let segments: Segment[];
  try {
    if (!(await stat(dir)).isDirectory()) throw new RecordingError(`${dir} is not a directory`);
    segments = await listSegments(dir);
  } catch (err) {
    if (err instanceof RecordingError) throw err;
    throw new RecordingError(`cannot read the recording ${dir}: ${(err as { code?: unknown }).code === 'ENOENT' ? 'no such directory' : errorMessage(err)}`);
  }
  if (segments.length === 0) throw new RecordingError(`${dir} holds no recording (no *.rec.gz segments: record with spotwatch run --record ${dir})`);
  return segments;
}

class Damaged extends Error {
  override readonly name = 'Damaged';
}

async function* readSegment(segment: Segment): AsyncGenerator<Read> {
  const bytes = new Bytes();
  const frames = new Frames(segment);
  const gunzip = createGunzip({ finishFlush: constants.Z_SYNC_FLUSH });
  const input = createReadStream(segment.file);
  input.on('error', (err) => gunzip.destroy(err));
  input.pipe(gunzip);
  try {
    try {
      for await (const chunk of gunzip) {
        bytes.push(chunk as Buffer);
        for (let r = frames.next(bytes); r !== undefined; r = frames.next(bytes)) yield r;
      }
    } catch (err) {
      // A RecordingError (another format version) ends the replay; anything else ends this segment.
      if (err instanceof RecordingError) throw err;
      yield { kind: 'end', segment, complete: false, reason: err instanceof Damaged ? err.message : `damaged: ${errorMessage(err)}` };
      return;
    }
    yield frames.ended() ? { kind: 'end', segment, complete: true } : { kind: 'end', segment, complete: false, reason: 'cut short (the daemon stopped while writing it, or writes it still)' };
  } finally {
    input.destroy();
    gunzip.destroy();
  }
}

/** Records out of a segment's bytes: a line of JSON, then an answer's bodies (`bytes` each, then a newline). */
class Frames {
  private pending: { record: Entry; sizes: number[]; bodies: Buffer[] } | undefined;
  private first = true;
  /** The `end` record was read: the segment was ended as it should be. */
  private end = false;
  /** The last body of each exchange and request path, for `same`. */
  private readonly last = new Map<string, Buffer>();

  constructor(private readonly segment: Segment) {}

  ended(): boolean {
    return this.end;
  }

  /** The next record, when its bytes are all there (undefined: not yet); throws Damaged. */
  next(bytes: Bytes): Read | undefined {
    while (this.pending === undefined) {
      if (this.end && bytes.length > 0) throw new Damaged('damaged: records after its end');
      const end = bytes.newline();
      if (end < 0) return undefined;
      const line = bytes.take(end + 1).toString('utf8', 0, end);
      const record = parseRecord(line);
      if (record === undefined) {
        if (this.first) checkVersion(line, this.segment);
        throw new Damaged(this.first ? 'damaged: it does not begin with a state record' : 'damaged: a record that cannot be read');
      }
      if (this.first !== (record.t === 'state')) throw new Damaged(this.first ? 'damaged: it does not begin with a state record' : 'damaged: a state record inside it');
      this.first = false;
      if (record.t === 'end') {
        this.end = true;
        continue;
      }
      const sizes = record.t === 'answer' ? record.answers.flatMap((a) => ('bytes' in a ? [a.bytes] : [])) : [];
      this.pending = { record, sizes, bodies: [] };
    }
    const p = this.pending;
    while (p.bodies.length < p.sizes.length) {
      const size = p.sizes[p.bodies.length] as number;
      if (bytes.length < size + 1) return undefined;
      const body = bytes.take(size);
      if (bytes.take(1)[0] !== 0x0a) throw new Damaged('damaged: an answer\'s body is not as long as its record says');
      p.bodies.push(body);
    }
    this.pending = undefined;
    return { kind: 'record', segment: this.segment, record: p.record, answers: this.answers(p.record, p.bodies) };
  }

  /** An answer's bodies, `same` ones given the bytes of their path's last body. */
  private answers(record: Entry, bodies: Buffer[]): AnswerText[] {
    if (record.t !== 'answer') return [];
    let i = 0;
    return record.answers.map((a) => {
      const key = `${record.exchange}\u0000${a.path}`;
      const body = 'bytes' in a ? (bodies[i++] as Buffer) : this.last.get(key);
      if (body === undefined) throw new Damaged(`damaged: an answer "the same as before" with nothing before it (${a.path})`);
      this.last.set(key, body);
      return { path: a.path, body };
    });
  }
}

/** A first line of another format version is a RecordingError: the replay cannot go on with it. */
function checkVersion(line: string, segment: Segment): void {
  let v: unknown;
  try {
    v = (JSON.parse(line) as { v?: unknown }).v;
  } catch {
    return;
  }
  if (typeof v === 'number' && v !== FORMAT_VERSION) throw new RecordingError(`${segment.file} was recorded in format ${v}; this spotwatch reads format ${FORMAT_VERSION}`);
}

/** Bytes as they decompress: taken from the front, without joining the chunks more than a take needs. */
class Bytes {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  /** How many bytes from the front are known to hold no newline. */
  private searched = 0;

  get length(): number {
    return this.size;
  }

  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.size += chunk.length;
  }

  /** The offset of the first newline, or -1. */
  newline(): number {
    let offset = 0;
    for (const c of this.chunks) {
      if (offset + c.length > this.searched) {
        const i = c.indexOf(0x0a, Math.max(0, this.searched - offset));
        if (i >= 0) return offset + i;
      }
      offset += c.length;
    }
    this.searched = offset;
    return -1;
  }

  /** The first `n` bytes (at most the length), removed. */
  take(n: number): Buffer {
    const parts: Buffer[] = [];
    let need = Math.min(n, this.size);
    const total = need;
    while (need > 0) {
      const c = this.chunks[0] as Buffer;
      if (c.length <= need) {
        parts.push(c);
        this.chunks.shift();
        need -= c.length;
      } else {
        parts.push(c.subarray(0, need));
        this.chunks[0] = c.subarray(need);
        need = 0;
      }
    }
    this.size -= total;
    this.searched = Math.max(0, this.searched - total);
    return parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, total);
  }
}
