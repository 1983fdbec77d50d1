/**
 * /metrics at exchange scale. The snapshot families (tens of thousands of series) are
 * rendered when a poll changes them, and kept only compressed: one gzip member per family
 * and exchange. A gzip answer is members back to back, which every HTTP client decodes as
 * one stream, so a scrape just writes the stored members in exposition order (every
 * family's header, then that family's samples of each exchange) after the small registry
 * of counters and process metrics, the only part rendered per scrape. A ticker poll
 * re-encodes only its own exchange's ticker families, never the larger network families,
 * and no full exposition text is ever held in memory.
 */
import { promisify } from 'node:util';
import { gunzip, gzip, gzipSync } from 'node:zlib';
import type { Registry } from 'prom-client';
import { familyHeader, NETWORK_FAMILIES, renderNetworks, renderTickers, TICKER_FAMILIES, type FamilyLines, type FamilyName, type RenderCache, type SeriesFilter } from './render';
import { systemClock, type Clock } from '../lib/clock';
import { inTurns } from '../lib/timer';
import type { Snapshot } from '../snapshot/model';

const gzipAsync = promisify(gzip) as (text: string, options: { level: number }) => Promise<Buffer>;
const gunzipAsync = promisify(gunzip) as (data: Buffer) => Promise<Buffer>;

const LEVEL = { level: 1 };
const EMPTY: Promise<Buffer> = Promise.resolve(Buffer.alloc(0));

type Part = 'coins' | 'tickers';

const FAMILIES: Record<Part, readonly FamilyName[]> = { coins: NETWORK_FAMILIES, tickers: TICKER_FAMILIES };

/** A family's header, compressed once. */
const HEADERS = new Map<FamilyName, Buffer>(
  [...NETWORK_FAMILIES, ...TICKER_FAMILIES].map((name) => [name, gzipSync(familyHeader(name), LEVEL)]),
);

interface Rendered {
  /** The record map the members were rendered from. */
  source: object;
  /** One member per family of the part, in family order. */
  members: Promise<Buffer>[];
}

/**
 * Records rendered per turn of the event loop: after a storm every coin is new (8,000 networks
 * closed), and rendering them all at once held the loop over 100 ms; a scrape meanwhile waits
 * for the members, never for the loop.
 */
const RENDER_CHUNK = 500;

/** How long scrapes share one rendering of the registry (counters, process metrics). */
export const REGISTRY_TEXT_MS = 500;

/** The part's lines, RENDER_CHUNK records per turn (records the cache holds cost nothing). */
async function renderInTurns(snapshot: Snapshot, part: Part, keep: SeriesFilter, cache: RenderCache): Promise<FamilyLines> {
  const pieces = new Map<FamilyName, string[]>(FAMILIES[part].map((name) => [name, []]));
  const add = (lines: FamilyLines): void => {
    for (const [name, list] of pieces) list.push(lines[name] ?? '');
  };
  if (part === 'coins') await inChunks(snapshot.coins, (coins) => add(renderNetworks({ ...snapshot, coins }, keep, cache)));
  else await inChunks(snapshot.tickers, (tickers) => add(renderTickers({ ...snapshot, tickers }, keep, cache)));
  const out: FamilyLines = {};
  for (const [name, list] of pieces) out[name] = list.join('');
  return out;
}

/** `each` of RENDER_CHUNK records of `records` at a time, a turn of the event loop between them. */
function inChunks<V>(records: ReadonlyMap<string, V>, each: (chunk: Map<string, V>) => void): Promise<void> {
  return inTurns(
    (function* () {
      const all = [...records];
      for (let i = 0; i < all.length; i += RENDER_CHUNK) {
        if (i > 0) yield;
        each(new Map(all.slice(i, i + RENDER_CHUNK)));
      }
    })(),
  );
}

export class Exposition {
  /** Per part, per exchange (in the order exchanges first appeared). */
  private readonly parts: Record<Part, Map<string, Rendered>> = { coins: new Map(), tickers: new Map() };
  /** Per-record lines; a new filter starts a new cache. */
  private cache: RenderCache = new WeakMap();

  constructor(
    private readonly registry: Registry,
    private keep: SeriesFilter = () => true,
    /** Ages the registry's text (see registryText). */
    private readonly clock: Clock = systemClock,
  ) {}

  /** New include/exclude filters (a reload): applied from each exchange's next poll. */
  setFilter(keep: SeriesFilter): void {
    this.keep = keep;
    this.cache = new WeakMap();
    for (const part of Object.values(this.parts)) for (const r of part.values()) r.source = {};
  }

  /** An exchange no longer watched: its series go. */
  drop(exchange: string): void {
    this.parts.coins.delete(exchange);
    this.parts.tickers.delete(exchange);
  }

  /** A new accepted snapshot of one part of one exchange. */
  update(snapshot: Snapshot, part: Part): void {
    // The same map as last time (merge keeps it when nothing changed): nothing to render.
    const source = part === 'coins' ? snapshot.coins : snapshot.tickers;
    const previous = this.parts[part].get(snapshot.exchange);
    if (previous?.source === source) return;
    const text = renderInTurns(snapshot, part, this.keep, this.cache);
    // Compressed on libuv's thread pool, off the event loop; no scrape waits for rendering.
    const members = FAMILIES[part].map((name) => {
      const member = text.then((lines) => {
        const t = lines[name] ?? '';
        return t === '' ? EMPTY : gzipAsync(t, LEVEL);
      });
      member.catch(() => undefined);
      return member;
    });
    this.parts[part].set(snapshot.exchange, { source, members });
  }

  /** Series came or went (a reload): the next scrape renders the registry afresh. */
  refresh(): void {
    this.small = undefined;
  }

  /** The registry's text, kept for REGISTRY_TEXT_MS: concurrent scrapes share one rendering. */
  private small: { at: number; text: Promise<string>; gzip?: Buffer } | undefined;

  private registryText(): { text: Promise<string>; entry: NonNullable<Exposition['small']> } {
    const now = this.clock.now();
    if (this.small === undefined || now - this.small.at > REGISTRY_TEXT_MS) this.small = { at: now, text: this.registry.metrics() };
    return { text: this.small.text, entry: this.small };
  }

  /** The snapshot families' members in exposition order. */
  private async snapshotMembers(): Promise<Buffer[]> {
    const out: Promise<Buffer>[] = [];
    for (const part of ['coins', 'tickers'] as const) {
      const exchanges = [...this.parts[part].values()];
      FAMILIES[part].forEach((name, i) => {
        out.push(Promise.resolve(HEADERS.get(name) as Buffer));
        for (const r of exchanges) out.push(r.members[i] as Promise<Buffer>);
      });
    }
    return (await Promise.all(out)).filter((b) => b.length > 0);
  }

  /** The whole exposition as text, for a scraper that does not take gzip. */
  async render(): Promise<string> {
    const [registry, members] = await Promise.all([this.registryText().text, this.snapshotMembers()]);
    return registry + (await gunzipAsync(Buffer.concat(members))).toString('utf8');
  }

  /** Gzip members, to be sent one after the other (every HTTP client reads them as one stream). */
  async renderGzip(): Promise<Buffer[]> {
    const members = await this.snapshotMembers();
    const { text, entry } = this.registryText();
    entry.gzip ??= gzipSync(await text, LEVEL);
    return [entry.gzip, ...members];
  }
}
