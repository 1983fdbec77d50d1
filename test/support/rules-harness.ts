import type { Alert } from '../../src/alerts/alert';
import { silentLogger } from '../../src/lib/logger';
import { Engine } from '../../src/poll/engine';
import type { Domain } from '../../src/rules/evaluate';
import { parseRules } from '../../src/rules/load';
import type { Rule } from '../../src/rules/model';
import type { GuardOptions } from '../../src/snapshot/guard';
import { applyCoins, applyTickers } from '../../src/snapshot/merge';
import { emptySnapshot, type CoinRecord, type Snapshot, type TickerRecord } from '../../src/snapshot/model';

/** Rules from YAML text, through the real loader (so tests read like the docs). */
export function rulesFrom(yaml: string): Rule[] {
  const result = parseRules(yaml, 'rules.yaml', {});
  if (!result.ok) throw new Error(result.problems.join('\n'));
  return result.rules;
}

export function coinsSnapshot(coins: CoinRecord[], at = 0): Snapshot {
  return applyCoins(emptySnapshot('main'), { records: coins, issues: [] }, at);
}

export function tickersSnapshot(tickers: TickerRecord[], at = 0): Snapshot {
  return applyTickers(emptySnapshot('main'), { records: tickers, issues: [] }, at);
}

/** A guard that never holds an answer as suspect: the harness's snapshots are a coin or two. */
const NEVER_HOLD: GuardOptions = { maxShrink: 1, confirmPolls: 1, confirmMs: 0 };

/** Guard settings that give every exchange NEVER_HOLD. */
class NeverHold extends Map<string, GuardOptions> {
  override get(): GuardOptions {
    return NEVER_HOLD;
  }
}

/**
 * Drives the real engine (Engine.decide: diff, rules, the alert lifecycle) poll by poll, the
 * way the daemon's poll path does, each domain's answer judged against the last one given.
 */
export class Harness {
  readonly engine: Engine;
  private readonly last = new Map<Domain, Snapshot>();

  private readonly settings: { guards: NeverHold; expectedSymbols: Map<string, ReadonlySet<string>> };

  constructor(
    readonly rules: Rule[],
    expectedSymbols: ReadonlySet<string> = new Set(),
    /** The alerts active before (as restored from a store). */
    alerts: Iterable<Alert> = [],
    /** Every step judged afresh: the engine forgets its last evaluations before each (as after a reload). */
    private readonly afresh = false,
  ) {
    this.settings = { guards: new NeverHold(), expectedSymbols: new Map([['main', expectedSymbols]]) };
    this.engine = new Engine({ rules, alerts, logger: silentLogger(), ...this.settings });
  }

  /** The active alerts (pending and firing). */
  get alerts(): ReadonlyMap<string, Alert> {
    return this.engine.activeAlerts();
  }

  /** One answer of `domain`; returns what must be told. An answer the engine does not take (an empty list) throws. */
  async step(domain: Domain, snapshot: Snapshot, now: number): Promise<Alert[]> {
    const prev = this.last.get(domain) ?? emptySnapshot(snapshot.exchange);
    if (this.afresh) this.engine.configure(this.settings);
    const decision = await this.engine.decide({ exchange: snapshot.exchange, endpoint: domain, prev, next: snapshot, at: now });
    if (decision.outcome !== 'accepted') throw new Error(`the engine did not take the ${domain} answer (${decision.outcome})`);
    this.last.set(domain, snapshot);
    return decision.notify;
  }
}

/** The gist of notifications: status and the labels that tell them apart. */
export function gist(notes: Alert[]): string[] {
  return notes.map((a) => `${a.status} ${a.labels.alertname} ${[a.labels.coin, a.labels.network, a.labels.symbol, a.event ? a.labels.kind : undefined].filter(Boolean).join('/')}`);
}
