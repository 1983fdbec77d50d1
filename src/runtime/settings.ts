import type { Config, ExchangeConfig } from '../config';
import { ConfigError } from '../config/errors';
import type { SeriesFilter } from '../metrics/render';
import { loadRulesFile } from '../config/rules-file';
import { compileMatcher } from '../rules/match';
import type { Rule } from '../rules/model';
import type { FlapOptions } from '../rules/flapping';
import type { GuardOptions } from '../snapshot/guard';
import { ChainTable } from '../snapshot/chains';
import type { ChainOf } from '../rules/transfer';
import type { StepSettings } from '../poll/state';
import { DEFAULT_DIALECT } from '../exchange/dialects/registry';
import { noticeSources } from '../notices/registry';
import type { NoticeSource } from '../notices/source';

/** What the parts of the daemon take from the config, derived once per (re)load. */

/**
 * metrics.include / metrics.exclude as one test on coin, network and symbol names; `chain` is
 * tested on a network's canonical chain (the empty string when unknown).
 */
export function seriesFilter(config: Config): SeriesFilter {
  const compile = (m: Partial<Record<'coin' | 'network' | 'chain' | 'symbol', string>>) =>
    new Map(Object.entries(m).map(([label, pattern]) => [label, compileMatcher(label, pattern)]));
  const include = compile(config.metrics.include);
  const exclude = compile(config.metrics.exclude);
  if (include.size === 0 && exclude.size === 0) return () => true;
  const test = (label: string, value: string): boolean => (include.get(label)?.test(value) ?? true) && !(exclude.get(label)?.test(value) ?? false);
  if (!include.has('chain') && !exclude.has('chain')) return test;
  const chainOf = chainLookup(config);
  return (label, value, exchange) => test(label, value) && (label !== 'network' || exchange === undefined || test('chain', chainOf(exchange, value) ?? ''));
}

/** The watch lists by exchange, for the `missing` ticker condition. */
export function watchLists(config: Config): Map<string, Set<string>> {
  return new Map(config.exchanges.map((e) => [e.name, new Set(e.symbols)]));
}

export function guards(config: Config): Map<string, GuardOptions> {
  return new Map(config.exchanges.map((e) => [e.name, { maxShrink: e.guard.max_shrink, confirmPolls: e.guard.confirm_polls, confirmMs: e.guard.confirm_for }]));
}

export function flapping(config: Config): Map<string, FlapOptions> {
  return new Map(config.exchanges.map((e) => [e.name, { enabled: e.flapping.enabled, window: e.flapping.window, highPercent: e.flapping.high_percent, lowPercent: e.flapping.low_percent }]));
}

export async function loadRules(config: Config, env: NodeJS.ProcessEnv): Promise<Rule[]> {
  if (config.rules_file === undefined) return [];
  const result = await loadRulesFile(config.rules_file, env);
  if (!result.ok) throw new ConfigError(result.problems);
  const file = config.rules_file;
  const names = new Set(config.exchanges.map((e) => e.name));
  // A transfer rule reads two exchanges: naming one that is not watched would leave it unknown for ever.
  const problems = result.rules.flatMap((r) => {
    const c = r.condition;
    if (c.type !== 'transfer') return [];
    return (['from', 'to'] as const).filter((k) => !names.has(c[k])).map((k) => `${file}: rule ${r.alert}: transfer.${k} names no configured exchange: ${JSON.stringify(c[k])} (exchanges: ${[...names].join(', ')})`);
  });
  if (problems.length > 0) throw new ConfigError(problems);
  return result.rules;
}

/** The canonical chain of a network at an exchange: its dialect's column of the table, after the config's chains.aliases. */
export function chainLookup(config: Config): ChainOf {
  const table = new ChainTable(config.chains.aliases);
  const dialect = new Map(config.exchanges.map((e) => [e.name, e.dialect]));
  return (exchange, network) => table.chainOf(dialect.get(exchange) ?? DEFAULT_DIALECT, network);
}

/** Per exchange, the names of the notice sources it reads (none: notices off, or a dialect without any). */
export function noticeSourceNames(config: Config): Map<string, string[]> {
  // The embedded exchange's URL is known once it runs; a source's name does not depend on it.
  return new Map(config.exchanges.map((e) => [e.name, exchangeNoticeSources(e, 'http://embedded.invalid').map((s) => s.name)]));
}

/**
 * The notice sources an exchange reads, for the reader and the metrics alike: its dialect's, and a
 * Statuspage, the configured one or, for the embedded reference exchange (no base_url, reached at
 * `embeddedUrl`), its own (the demo's announced closure). A base URL that is not the dialect's own
 * (a double, a proxy, the embedded exchange) is where the unofficial lists are read too.
 */
export function exchangeNoticeSources(e: ExchangeConfig, embeddedUrl: string): NoticeSource[] {
  if (e.notices === false) return [];
  const embedded = e.base_url === undefined;
  return noticeSources(e.dialect, { unofficial: e.notices.unofficial, statuspage: e.notices.statuspage ?? (embedded ? `${embeddedUrl}/-/statuspage` : undefined), baseUrlSet: true });
}

/**
 * What `step` decides by, from the config and the rules: the one place the daemon's engine
 * and `spotwatch replay` get it from, so both decide alike.
 */
export function stepSettings(config: Config, rules: readonly Rule[]): StepSettings {
  return {
    rules,
    guards: guards(config),
    flapping: flapping(config),
    expectedSymbols: watchLists(config),
    chainOf: chainLookup(config),
    explainsFor: new Map(config.exchanges.flatMap((e) => (e.notices === false ? [] : [[e.name, e.notices.explains_for] as const]))),
  };
}
