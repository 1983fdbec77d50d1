import type { z } from 'zod';
import { REDACTED, redactUrlCredentials } from '../lib/redact-url';
import type { Notifier } from './notifier';
import type { ConfiguredReceiver, ReceiverDeps, ReceiverPlugin, SchemaContext } from './plugin';

/** Any kind's plugin, as the registry holds them (each kind's block type is its own business). */
export type AnyReceiverPlugin = ReceiverPlugin<object>;

type RedactKind = 'keep' | 'secret' | 'url' | 'header-values';

/** The receiver used when the config lists none. */
export interface FallbackReceiver {
  name: string;
  kind: string;
  block: object;
}

/**
 * The receiver kinds, each a plugin (see plugin.ts), and everything derived from them: the
 * config's receiver blocks, the kind check, redaction, the logger's redact paths, building a
 * notifier, and what routing asks of a kind. notify/registry.ts builds the one the daemon uses;
 * a test adds its own kinds with `with`.
 */
export class ReceiverRegistry {
  private readonly byKind: ReadonlyMap<string, AnyReceiverPlugin>;

  constructor(
    readonly plugins: readonly AnyReceiverPlugin[],
    private readonly fallbackReceiver: FallbackReceiver,
  ) {
    const byKind = new Map<string, AnyReceiverPlugin>();
    for (const p of plugins) {
      if (byKind.has(p.kind)) throw new Error(`receiver kind "${p.kind}" is registered twice`);
      if (p.kind === 'name' || p.kind === 'send_resolved' || p.kind === 'kind') throw new Error(`"${p.kind}" cannot be a receiver kind: it is a key of every receiver`);
      byKind.set(p.kind, p);
    }
    if (!byKind.has(fallbackReceiver.kind)) throw new Error(`the fallback receiver's kind "${fallbackReceiver.kind}" is not registered`);
    this.byKind = byKind;
  }

  /** The kinds, in the order they are listed (and named in the config's messages). */
  get kinds(): string[] {
    return this.plugins.map((p) => p.kind);
  }

  /** This registry with more kinds after its own (a test's receiver, say). */
  with(...extra: readonly AnyReceiverPlugin[]): ReceiverRegistry {
    return new ReceiverRegistry([...this.plugins, ...extra], this.fallbackReceiver);
  }

  /** Each kind's block schema, optional, under the kind's key, in registry order. */
  blockSchemas(ctx: SchemaContext): Record<string, z.ZodTypeAny> {
    return Object.fromEntries(this.plugins.map((p) => [p.kind, p.schema(ctx).optional()]));
  }

  /**
   * A validated entry (`name`, `send_resolved`, and exactly one kind's block: checked before) as
   * the rest of the program sees it: the kind named, its block under the same key as in the file.
   */
  configured(entry: { name: string; send_resolved: boolean; readonly [key: string]: unknown }): ConfiguredReceiver {
    const kind = this.kinds.find((k) => entry[k] !== undefined);
    if (kind === undefined) throw new Error(`receiver "${entry.name}" has no block of a known kind`);
    return { name: entry.name, send_resolved: entry.send_resolved, kind, [kind]: entry[kind] };
  }

  /** The receiver alerts go to when the config lists none. */
  get fallback(): ConfiguredReceiver {
    const { name, kind, block } = this.fallbackReceiver;
    return { name, send_resolved: true, kind, [kind]: { ...block } };
  }

  /** The receiver for display (API, logs): same shape, every secret its kind declares replaced. */
  redact(r: ConfiguredReceiver): ConfiguredReceiver {
    const plugin = this.pluginOf(r);
    const block = blockOf(r);
    const out: Record<string, unknown> = { ...block };
    for (const [key, as] of redactions(plugin)) {
      const value = out[key];
      if (value === undefined || as === 'keep') continue;
      if (as === 'url' && typeof value === 'string') out[key] = redactUrlCredentials(value);
      // Names stay: which headers are sent is useful to see; their values often carry tokens.
      else if (as === 'header-values' && typeof value === 'object' && value !== null) out[key] = Object.fromEntries(Object.keys(value).map((name) => [name, REDACTED]));
      else out[key] = REDACTED;
    }
    return { ...r, [r.kind]: out };
  }

  /**
   * Paths (pino's redact syntax) whose values never reach a log line: every key a kind declares
   * secret, wherever it appears, and every key it redacts in any way inside that kind's block
   * (`webhook.url`: a URL may carry credentials, though another `url` is fine to log).
   */
  logRedactPaths(): string[] {
    const paths = new Set<string>();
    for (const p of this.plugins) {
      for (const [key, as] of redactions(p)) {
        if (as === 'keep') continue;
        for (const path of [`${p.kind}.${key}`, ...(as === 'secret' ? [key] : [])]) {
          paths.add(path);
          paths.add(`*.${path}`);
        }
      }
    }
    return [...paths];
  }

  /** The receiver's notifier, built by its kind. */
  create(r: ConfiguredReceiver, deps: ReceiverDeps): Notifier {
    return this.pluginOf(r).create(r.name, blockOf(r), deps);
  }

  /** What routing needs to know: see ReceiverPlugin.resendInterval. */
  resendInterval(r: ConfiguredReceiver): number | undefined {
    return this.pluginOf(r).resendInterval?.(blockOf(r));
  }

  private pluginOf(r: ConfiguredReceiver): AnyReceiverPlugin {
    const plugin = this.byKind.get(r.kind);
    if (plugin === undefined) throw new Error(`receiver "${r.name}": no receiver kind "${r.kind}" is registered`);
    return plugin;
  }
}

function blockOf(r: ConfiguredReceiver): object {
  const block = r[r.kind];
  if (typeof block !== 'object' || block === null) throw new Error(`receiver "${r.name}" has no ${r.kind} block`);
  return block;
}

function redactions(p: AnyReceiverPlugin): [string, RedactKind][] {
  // Each kind's map is typed against its own block (ReceiverPlugin.redact); here any block.
  return Object.entries(p.redact as Readonly<Record<string, RedactKind>>);
}
