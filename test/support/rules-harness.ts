import { ActiveAlerts, advance } from '../../src/alerts/lifecycle';
import type { Alert } from '../../src/alerts/alert';
import { evaluateRules, ruleInDomain, type Domain } from '../../src/rules/evaluate';
import { TickerHistory } from '../../src/rules/history';
import { parseRules } from '../../src/rules/load';
import type { Rule } from '../../src/rules/model';
import type { Change } from '../../src/snapshot/changes';
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

/** Drives rules and the alert lifecycle poll by poll, the way the daemon does. */
export class Harness {
  alerts = new ActiveAlerts();
  readonly history = new TickerHistory(3_600_000);

  constructor(
    readonly rules: Rule[],
    readonly expectedSymbols: ReadonlySet<string> = new Set(),
  ) {}

  step(domain: Domain, snapshot: Snapshot, now: number, changes: Change[] = []): Alert[] {
    if (domain === 'tickers') this.history.record(snapshot.tickers.values(), now);
    const evaluation = evaluateRules({
      rules: this.rules,
      domain,
      snapshot,
      changes,
      history: this.history,
      expectedSymbols: this.expectedSymbols,
      now,
      wasActive: (ruleId, entity) => this.alerts.isActive(ruleId, entity),
    });
    const inDomain = new Map(this.rules.filter((r) => ruleInDomain(r, domain)).map((r) => [r.id, r]));
    const result = advance(this.alerts, evaluation, { exchange: snapshot.exchange, rules: inDomain, known: new Set(this.rules.map((r) => r.id)) }, now);
    this.alerts.apply(result);
    return result.notify;
  }
}

/** The gist of notifications: status and the labels that tell them apart. */
export function gist(notes: Alert[]): string[] {
  return notes.map((a) => `${a.status} ${a.labels.alertname} ${[a.labels.coin, a.labels.network, a.labels.symbol, a.event ? a.labels.kind : undefined].filter(Boolean).join('/')}`);
}
