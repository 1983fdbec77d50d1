/**
 * Every dialect: the only list of them. The config's `dialect` values, and the dialect each
 * exchange's client speaks, come from here; nothing else names a dialect folder.
 */
import type { Dialect } from '../dialect';
import { binance } from './binance';
import { bybit } from './bybit';
import { mexc } from './mexc';
import { okx } from './okx';
import { bitget } from './bitget';
import { gate } from './gate';
import { htx } from './htx';
import { kucoin } from './kucoin';
import { spotV3 } from './spot-v3';

/** The dialects by name; `with` adds one (as the tests add a dialect of their own). */
export class DialectRegistry {
  private readonly byName: ReadonlyMap<string, Dialect>;

  constructor(readonly dialects: readonly Dialect[]) {
    this.byName = new Map(dialects.map((d) => [d.name, d]));
    if (this.byName.size !== dialects.length) throw new Error(`two dialects share a name: ${dialects.map((d) => d.name).join(', ')}`);
  }

  /** The names, in the order of the list: what the config accepts. */
  names(): [string, ...string[]] {
    return this.dialects.map((d) => d.name) as [string, ...string[]];
  }

  /** The dialect of that name; throws for a name the config would have refused. */
  named(name: string): Dialect {
    const dialect = this.byName.get(name);
    if (dialect === undefined) throw new Error(`unknown dialect ${JSON.stringify(name)} (known: ${this.names().join(', ')})`);
    return dialect;
  }

  with(...more: readonly Dialect[]): DialectRegistry {
    return new DialectRegistry([...this.dialects, ...more]);
  }
}

/** The spec's own interface: what an exchange speaks when its config names no dialect. */
export const DEFAULT_DIALECT = spotV3.name;

export const dialects = new DialectRegistry([
  spotV3,
  binance,
  mexc,
  bitget,
  kucoin,
  gate,
  htx,
  okx,
  bybit,
]);
