import { promisify } from 'node:util';
import { gzip, gzipSync } from 'node:zlib';
import type { Registry } from 'prom-client';
import { assemble, renderNetworks, renderTickers, type FamilyLines, type RenderCache, type SeriesFilter } from './exposition';
import type { Snapshot } from '../snapshot/model';

/**
 * /metrics at exchange scale: the snapshot families are rendered (and gzipped) once when a
 * poll changes them, so a scrape costs almost nothing; only the small registry of counters
 * and process metrics is rendered per scrape. Gzip answers are two gzip members back to back,
 * which every HTTP client decodes as one stream.
 */
const gzipAsync = promisify(gzip) as (text: string, options: { level: number }) => Promise<Buffer>;

export class Exposition {
  private readonly parts = new Map<string, FamilyLines>();
  /** Per-record lines; a new filter starts a new cache. */
  private cache: RenderCache = new WeakMap();
  /** The record map each part was last rendered from. */
  private readonly rendered = new Map<string, object>();
  private text: string | undefined;
  private gzip: Promise<Buffer> | undefined;

  constructor(
    private readonly registry: Registry,
    private keep: SeriesFilter = () => true,
  ) {}

  /** New include/exclude filters (a reload): applied from each exchange's next poll. */
  setFilter(keep: SeriesFilter): void {
    this.keep = keep;
    this.cache = new WeakMap();
    this.rendered.clear();
  }

  /** A new accepted snapshot of one part of one exchange. */
  update(snapshot: Snapshot, part: 'coins' | 'tickers'): void {
    // The same map as last time (merge keeps it when nothing changed): nothing to render.
    const source = part === 'coins' ? snapshot.coins : snapshot.tickers;
    const key = `${snapshot.exchange}\u0000${part}`;
    if (this.rendered.get(key) === source) return;
    this.rendered.set(key, source);
    const lines = part === 'coins' ? renderNetworks(snapshot, this.keep, this.cache) : renderTickers(snapshot, this.keep, this.cache);
    this.parts.set(key, lines);
    // Rendered here, in the poll, so no scrape waits for it; compressed on libuv's thread
    // pool, off the event loop.
    this.text = assemble(this.parts.values());
    this.gzip = gzipAsync(this.text, { level: 1 });
    this.gzip.catch(() => undefined);
  }

  private snapshotText(): string {
    this.text ??= assemble(this.parts.values());
    return this.text;
  }

  private snapshotGzip(): Promise<Buffer> {
    this.gzip ??= gzipAsync(this.snapshotText(), { level: 1 });
    return this.gzip;
  }

  /** The registry's text, kept for half a second: concurrent scrapes share one rendering. */
  private small: { at: number; text: Promise<string>; gzip?: Buffer } | undefined;

  private registryText(): { text: Promise<string>; entry: NonNullable<Exposition['small']> } {
    const now = Date.now();
    if (this.small === undefined || now - this.small.at > 500) this.small = { at: now, text: this.registry.metrics() };
    return { text: this.small.text, entry: this.small };
  }

  async render(): Promise<string> {
    return (await this.registryText().text) + this.snapshotText();
  }

  /** Two gzip members, to be sent one after the other (every HTTP client reads them as one stream). */
  async renderGzip(): Promise<Buffer[]> {
    const big = await this.snapshotGzip();
    const { text, entry } = this.registryText();
    entry.gzip ??= gzipSync(await text, { level: 1 });
    return [entry.gzip, big];
  }
}
