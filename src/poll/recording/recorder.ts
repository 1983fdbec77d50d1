/**
 * The recording of the engine (`spotwatch run --record DIR`): every input given to `step`,
 * with its time, in order, into gzip'd segment files (format.ts), bounded by size and age.
 *
 * Nothing here stalls the engine: a record is a short line, and an answer's bodies are
 * handed to zlib's stream as the buffers the client already holds (compressed on the thread
 * pool, never copied or escaped here). A disk that fails (or cannot keep up) is logged once per
 * streak and never stops polling: what comes meanwhile is not recorded, and recording starts
 * again, in a new segment that begins with the state reached, once a minute has passed.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, readdirSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { constants, createGzip, type Gzip } from 'node:zlib';
import type { AnswerTexts } from '../../exchange/watch-list';
import { errorMessage } from '../../lib/error-message';
import type { Logger } from '../../lib/logger';
import type { PollState } from '../state';
import type { StepInput } from '../step';
import { checkpointOf, FORMAT_VERSION, type BodyRef, type Recorded, type StateRecord, type WatchedExchange } from './format';
import { pruneSegments, segmentName, segmentOf } from './segments';

export interface RecordOptions {
  dir: string;
  /** Bytes the segments may hold together (compressed). */
  maxBytes: number;
  /** Segments whose records are all older than this are deleted. */
  maxAgeMs: number;
  /** The exchanges watched, with their dialects (a replay reads each answer with its exchange's). */
  watched: WatchedExchange[];
}

/** What the poll knew of an input beside it: the answer's bytes (FetchResult.texts), a failure's kind. */
export interface InputDetail {
  texts?: AnswerTexts | undefined;
  kind?: string | undefined;
}

/** How long after a failure of the disk recording is tried again. */
export const RETRY_AFTER_MS = 60_000;
/** Bytes waiting to be compressed and written past which the disk is taken as not keeping up. */
const MAX_QUEUED_BYTES = 64 * 1024 * 1024;
/** A bound is kept by deleting whole segments: each is at most this part of it... */
const SEGMENTS_PER_BOUND = 16;
/** ...at most this large (a replay decompresses a segment as it reads it, whatever its size)... */
const MAX_SEGMENT_BYTES = 64 * 1024 * 1024;
/** ...and at most this long, so that age deletes an hour at a time. */
const MAX_SEGMENT_MS = 3_600_000;

/** One segment being written: a gzip stream into its file. */
class SegmentWriter {
  private readonly gzip: Gzip;
  private readonly out: WriteStream;
  /** Compressed bytes so far. */
  compressed = 0;
  /** The last body written per exchange and request path, to record an unchanged answer as `same` (by identity: the client hands back the very buffer of an answer that did not change). */
  readonly bodies = new Map<string, Buffer>();

  constructor(
    readonly file: string,
    readonly startedAt: number,
    onError: (err: unknown) => void,
  ) {
    this.out = createWriteStream(file, { flags: 'wx' });
    this.gzip = createGzip();
    this.gzip.on('data', (chunk: Buffer) => {
      this.compressed += chunk.length;
    });
    this.gzip.pipe(this.out);
    this.gzip.on('error', onError);
    this.out.on('error', onError);
  }

  write(record: Recorded, bodies: readonly Buffer[] = []): void {
    this.gzip.write(`${JSON.stringify(record)}\n`);
    for (const b of bodies) {
      this.gzip.write(b);
      this.gzip.write('\n');
    }
  }

  /** What was written so far becomes readable (a replay of a recording still being written; a kill -9). */
  flush(): void {
    this.gzip.flush(constants.Z_SYNC_FLUSH);
  }

  /** Bytes waiting to be compressed or written. */
  queued(): number {
    return this.gzip.writableLength + this.out.writableLength;
  }

  written(): number {
    return this.out.bytesWritten;
  }

  /** The `end` record, and the file closed. */
  async end(at: number): Promise<void> {
    this.write({ t: 'end', at });
    this.gzip.end();
    await finished(this.out).catch(() => undefined);
  }

  destroy(): void {
    this.gzip.destroy();
    this.out.destroy();
  }
}

export class Recorder {
  private writer: SegmentWriter | undefined;
  private seq: number;
  private readonly run = randomBytes(8).toString('hex');
  /** Whether the disk failed (logged once per streak), and when to try again. */
  private failing = false;
  private retryAt = 0;
  /** The time of the last record, for a failure the streams report later. */
  private lastAt = 0;
  private pruning: Promise<void> | undefined;
  /** Segments being ended. */
  private readonly ending = new Set<Promise<void>>();

  constructor(
    private options: RecordOptions,
    private readonly logger: Logger,
  ) {
    this.seq = lastSeq(options.dir);
  }

  get dir(): string {
    return this.options.dir;
  }

  /** The state the engine starts from: the first segment begins with it (and a replay of it). */
  start(state: PollState, now: number): void {
    this.open(state, now, false);
  }

  /** The configuration was reloaded: new bounds, and a record of it (the replay judges every rule again, as the daemon does). */
  reload(options: RecordOptions, now: number): void {
    this.options = options;
    this.put(now, (w) => w.write({ t: 'reload', at: now, watched: options.watched }));
  }

  /**
   * The inputs the poll path gave `step` for one input (the input, then its writes' outcomes),
   * at `now`; `before`: the state before the first, which a new segment begins with.
   */
  record(before: PollState, inputs: readonly StepInput[], now: number, detail: InputDetail = {}): void {
    try {
      const w = this.ready(before, now);
      if (w === undefined) return;
      for (const [i, input] of inputs.entries()) {
        const d = i === 0 ? detail : {};
        if (input.type === 'answer' && d.texts === undefined) {
          // Not one that can be read again: the segment ends here, and the next begins with the state this answer led to.
          this.logger.warn({ exchange: input.exchange, endpoint: input.endpoint }, 'an answer without its bytes cannot be recorded; the recording starts a new segment');
          this.retire(w, now);
          return;
        }
        if (!this.put(now, (writer) => this.write(writer, input, now, d))) return;
      }
    } catch (err) {
      // A fault of the recording is never one of polling.
      this.fail(this.writer, err);
    }
  }

  /** Ends the segment being written, and keeps the bounds with every segment written whole. */
  async close(): Promise<void> {
    if (this.writer !== undefined) this.retire(this.writer, this.lastAt);
    await Promise.all(this.ending);
    await this.pruning;
    const { dir, maxBytes, maxAgeMs } = this.options;
    await pruneSegments(dir, undefined, maxBytes, maxAgeMs, this.lastAt).catch(() => undefined);
  }

  /** The segment to write to: the current one, a new one when it is full or old (or after a failure, once it is time to try again). */
  private ready(state: PollState, now: number): SegmentWriter | undefined {
    const w = this.writer;
    if (w === undefined) {
      if (this.failing && now < this.retryAt) return undefined;
      return this.open(state, now, false);
    }
    if (this.failing && w.written() > 0) {
      this.failing = false;
      this.logger.info({ dir: this.options.dir }, 'recording again');
    }
    const { bytes, ms } = this.segmentBounds();
    if (w.compressed < bytes && now - w.startedAt < ms) return w;
    this.retire(w, now);
    return this.open(state, now, true);
  }

  /** Ends a segment (its `end` record, its file closed) in the background; close() waits for it. */
  private retire(w: SegmentWriter, at: number): void {
    if (this.writer === w) this.writer = undefined;
    const ending = w.end(at).finally(() => this.ending.delete(ending));
    this.ending.add(ending);
  }

  /** Writes through `fn` and makes it readable; false when the disk failed (or does not keep up). */
  private put(now: number, fn: (w: SegmentWriter) => void): boolean {
    const w = this.writer;
    if (w === undefined) return false;
    this.lastAt = now;
    try {
      fn(w);
      w.flush();
    } catch (err) {
      this.fail(w, err);
      return false;
    }
    if (w.queued() > MAX_QUEUED_BYTES) {
      this.fail(w, new Error(`more than ${MAX_QUEUED_BYTES} bytes wait to be written: the disk does not keep up`));
      return false;
    }
    return true;
  }

  private write(w: SegmentWriter, input: StepInput, at: number, detail: InputDetail): void {
    const { exchange } = input;
    switch (input.type) {
      case 'answer': {
        const texts = detail.texts ?? { answers: [] };
        const bodies: Buffer[] = [];
        const answers = texts.answers.map(({ path, body }): BodyRef => {
          const key = `${exchange}\u0000${path}`;
          if (w.bodies.get(key) === body) return { path, same: true };
          w.bodies.set(key, body);
          bodies.push(body);
          return { path, bytes: body.length };
        });
        const dialect = this.options.watched.find((e) => e.name === exchange)?.dialect ?? '';
        w.write({ t: 'answer', at, exchange, endpoint: input.endpoint, dialect, answers, ...(texts.watch !== undefined && { watch: texts.watch }) }, bodies);
        return;
      }
      case 'failure':
        w.write({ t: 'failure', at, exchange, endpoint: input.endpoint, ...(detail.kind !== undefined && { kind: detail.kind }), error: input.error });
        return;
      case 'written':
        w.write({ t: 'written', at, exchange, error: input.error ?? null });
        return;
      case 'drop':
        w.write({ t: 'drop', at, exchange });
        return;
      case 'notices':
        w.write({ t: 'notices', at, exchange, source: input.source, read: input.read, vanished: input.options.vanished });
        return;
    }
  }

  /** A new segment, beginning with `state`. */
  private open(state: PollState, now: number, continues: boolean): SegmentWriter | undefined {
    const { dir, watched } = this.options;
    let w: SegmentWriter | undefined;
    try {
      mkdirSync(dir, { recursive: true });
      this.seq += 1;
      const file = join(dir, segmentName(this.seq, now));
      w = new SegmentWriter(file, now, (err) => this.fail(w, err));
      this.writer = w;
      const first: StateRecord = { t: 'state', v: FORMAT_VERSION, at: now, run: this.run, continues, watched, ...checkpointOf(state) };
      if (!this.put(now, (writer) => writer.write(first))) return undefined;
    } catch (err) {
      this.fail(w, err);
      return undefined;
    }
    this.prune(now);
    return w;
  }

  /** The disk failed under `w` (or before a segment could be opened): logged once per streak; recording is tried again after a while. */
  private fail(w: SegmentWriter | undefined, err: unknown): void {
    w?.destroy();
    if (w !== undefined && this.writer !== w) return;
    this.writer = undefined;
    this.retryAt = this.lastAt + RETRY_AFTER_MS;
    if (!this.failing) this.logger.error({ dir: this.options.dir, error: errorMessage(err) }, 'cannot write the recording; polling goes on, unrecorded, and recording is tried again in a minute');
    this.failing = true;
  }

  /** The oldest segments deleted while the others hold more than the bound less the room of the one being written. */
  private prune(now: number): void {
    if (this.pruning !== undefined) return;
    const { dir, maxBytes, maxAgeMs } = this.options;
    const budget = Math.max(0, maxBytes - this.segmentBounds().bytes);
    this.pruning = pruneSegments(dir, this.writer?.file, budget, maxAgeMs, now)
      .then((deleted) => {
        if (deleted.length > 0) this.logger.debug({ dir, deleted: deleted.length }, 'oldest segments of the recording deleted');
      })
      .catch((err: unknown) => this.logger.warn({ dir, error: errorMessage(err) }, 'cannot delete old segments of the recording'))
      .finally(() => {
        this.pruning = undefined;
      });
  }

  private segmentBounds(): { bytes: number; ms: number } {
    const { maxBytes, maxAgeMs } = this.options;
    return {
      bytes: Math.max(1, Math.min(MAX_SEGMENT_BYTES, Math.floor(maxBytes / SEGMENTS_PER_BOUND))),
      ms: Math.max(1, Math.min(MAX_SEGMENT_MS, Math.floor(maxAgeMs / SEGMENTS_PER_BOUND))),
    };
  }
}

/** The highest sequence number of the segments already in `dir` (0 when none, or unreadable: the first write will tell). */
function lastSeq(dir: string): number {
  try {
    return readdirSync(dir).reduce((n, name) => Math.max(n, segmentOf(dir, name)?.seq ?? 0), 0);
  } catch {
    return 0;
  }
}
