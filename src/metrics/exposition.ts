/**
 * /metrics at exchange scale. The per-network and per-ticker families (tens of thousands of
 * series) are rendered by the engine, which holds the snapshots, when a scrape asks and a
 * part changed since the last scrape (ticker prices every poll, the coin list rarely): they are
 * kept here compressed, one gzip member per family, part and exchange. A gzip answer is members
 * back to back, which every HTTP client decodes as one stream, so a scrape writes the stored
 * members in exposition order (every family's header, then that family's samples of each
 * exchange) after the small registry of counters and process metrics, the only part rendered per
 * scrape. A scrape while the engine is busy (a storm's step) is answered with what is kept.
 */
import { promisify } from 'node:util';
import { gunzip, gzip, gzipSync } from 'node:zlib';
import type { Registry } from 'prom-client';
import { familyHeader, NETWORK_FAMILIES, TICKER_FAMILIES, type FamilyName } from './render';
import { systemClock, type Clock } from '../lib/clock';
import type { Endpoint } from '../snapshot/model';
import { systemScheduler } from '../lib/scheduler';

const gzipAsync = promisify(gzip) as (text: string, options: { level: number }) => Promise<Buffer>;
const gunzipAsync = promisify(gunzip) as (data: Buffer) => Promise<Buffer>;

const LEVEL = { level: 1 };
const EMPTY = Buffer.alloc(0);

const FAMILIES: Record<Endpoint, readonly FamilyName[]> = { coins: NETWORK_FAMILIES, tickers: TICKER_FAMILIES };

/** A family's header, compressed once. */
const HEADERS = new Map<FamilyName, Buffer>([...NETWORK_FAMILIES, ...TICKER_FAMILIES].map((name) => [name, gzipSync(familyHeader(name), LEVEL)]));

/** The version of each part the exposition has, per exchange. */
export type PartVersions = Record<string, Partial<Record<Endpoint, number>>>;

/**
 * The families of the parts whose version differs from `have`, one text per family (in the
 * order of render.ts), and the exchanges watched, in order; undefined when there is no answer.
 */
export type FamilySource = (have: PartVersions) => Promise<{ exchanges: string[]; texts: { exchange: string; part: Endpoint; version: number; families: string[] }[] } | undefined>;

/** How long scrapes share one rendering of the registry (counters, process metrics). */
export const REGISTRY_TEXT_MS = 500;

export class Exposition {
  /** Per exchange, per part: its version and one member per family. */
  private readonly parts = new Map<string, Partial<Record<Endpoint, { version: number; members: Buffer[] }>>>();
  private exchanges: string[] = [];
  private updating: Promise<void> | undefined;

  constructor(
    private readonly registry: Registry,
    private readonly families: FamilySource,
    /** Ages the registry's text (see registryText). */
    private readonly clock: Clock = systemClock,
    /**
     * How long a scrape waits for the families of parts that changed (the engine may be
     * deciding a storm's answer): then it answers with what it has, and what comes later is
     * kept for the next scrape.
     */
    private readonly waitMs = 50,
  ) {}

  /** Series came or went, or the series filter changed (a reload): the next scrape renders everything afresh. */
  refresh(): void {
    this.small = undefined;
    this.parts.clear();
  }

  /** The registry's text, kept for REGISTRY_TEXT_MS: concurrent scrapes share one rendering. */
  private small: { at: number; text: Promise<string>; gzip?: Buffer } | undefined;

  private registryText(): { text: Promise<string>; entry: NonNullable<Exposition['small']> } {
    const now = this.clock.monotonic();
    if (this.small === undefined || now - this.small.at > REGISTRY_TEXT_MS) this.small = { at: now, text: this.registry.metrics() };
    return { text: this.small.text, entry: this.small };
  }

  /** The families of the parts that changed, from the engine; concurrent scrapes share one question. */
  private update(): Promise<void> {
    this.updating ??= (async () => {
      try {
        const have: PartVersions = {};
        for (const [exchange, parts] of this.parts) have[exchange] = { coins: parts.coins?.version, tickers: parts.tickers?.version };
        const answer = await this.families(have);
        if (answer === undefined) return;
        // Compressed on libuv's thread pool, off the event loop, then kept in place of the old ones.
        const compressed = await Promise.all(answer.texts.map(async (t) => ({ ...t, members: await Promise.all(t.families.map((text) => (text === '' ? EMPTY : gzipAsync(text, LEVEL)))) })));
        this.exchanges = answer.exchanges;
        for (const name of this.parts.keys()) if (!answer.exchanges.includes(name)) this.parts.delete(name);
        for (const t of compressed) this.parts.set(t.exchange, { ...this.parts.get(t.exchange), [t.part]: { version: t.version, members: t.members } });
      } finally {
        this.updating = undefined;
      }
    })();
    return this.updating;
  }

  /** The snapshot families' members in exposition order (what is kept, when the changes take longer than the wait). */
  private async snapshotMembers(): Promise<Buffer[]> {
    const update = this.update();
    // Nothing kept yet (the first scrapes): what there is to show is waited for.
    if (this.parts.size === 0) await update;
    else {
      let cancel = (): void => undefined;
      await Promise.race([update, new Promise<void>((resolve) => (cancel = systemScheduler.after(this.waitMs, resolve)))]);
      cancel();
    }
    const out: Buffer[] = [];
    for (const part of ['coins', 'tickers'] as const) {
      FAMILIES[part].forEach((name, i) => {
        out.push(HEADERS.get(name) as Buffer);
        for (const exchange of this.exchanges) {
          const member = this.parts.get(exchange)?.[part]?.members[i];
          if (member !== undefined && member.length > 0) out.push(member);
        }
      });
    }
    return out;
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
