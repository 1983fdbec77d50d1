import type { Alert } from '../../src/alerts/alert';
import { alertsOf } from '../../src/alerts/lifecycle';
import type { Domain } from '../../src/rules/evaluate';
import { parseRules } from '../../src/rules/parse';
import type { Rule } from '../../src/rules/model';
import { configure, initialState, type PollState, type StepSettings } from '../../src/poll/state';
import { step } from '../../src/poll/step';
import type { GuardOptions } from '../../src/snapshot/guard';
import { applyCoins, applyTickers } from '../../src/snapshot/merge';
import { emptySnapshot, type CoinRecord, type RecordIssue, type Snapshot, type TickerRecord } from '../../src/snapshot/model';
import { DEFAULT_SETTINGS } from './poll-settings';

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
 * Drives the poll path's real decision (step: merge, diff, rules, the alert lifecycle) answer
 * by answer, as the daemon's engine does: each snapshot given is the exchange's answer of
 * that domain (its records).
 */
export class Harness {
  private state: PollState;
  private readonly settings: StepSettings;

  constructor(
    readonly rules: Rule[],
    expectedSymbols: ReadonlySet<string> = new Set(),
    /** The alerts active before (as restored from a store). */
    alerts: Iterable<Alert> = [],
    /** Every step judged afresh: the settings given again before each (as after a reload). */
    private readonly afresh = false,
  ) {
    this.settings = { ...DEFAULT_SETTINGS, rules, guards: new NeverHold(), expectedSymbols: new Map([['main', expectedSymbols]]) };
    this.state = initialState(this.settings, new Map(), alerts);
  }

  /** The active alerts (pending and firing), by fingerprint. */
  get alerts(): ReadonlyMap<string, Alert> {
    return new Map([...alertsOf(this.state.alerts)].map((a) => [a.fingerprint, a]));
  }

  /** One answer of `domain` (the snapshot's records); returns what must be told. An answer not taken (an empty list) throws. */
  async step(domain: Domain, snapshot: Snapshot, now: number): Promise<Alert[]> {
    if (this.afresh) this.state = configure(this.state, this.settings);
    const exchange = snapshot.exchange;
    // What the snapshot holds as unknown is what an answer sets aside (see merge.ts).
    const setAside = (keys: ReadonlySet<string> | undefined, issue: (key: string, index: number) => RecordIssue): RecordIssue[] => [...(keys ?? [])].map(issue);
    const r =
      domain === 'coins'
        ? step(this.state, { type: 'answer', exchange, endpoint: 'coins', answer: { records: [...snapshot.coins.values()], issues: setAside(snapshot.unknownCoins, coinIssue) } }, now)
        : step(this.state, { type: 'answer', exchange, endpoint: 'tickers', answer: { records: [...snapshot.tickers.values()], issues: setAside(snapshot.unknownSymbols, (symbol, index) => ({ entity: 'ticker', symbol, index, reason: 'set aside' })) } }, now);
    if (r.outcome !== 'accepted') throw new Error(`the poll path did not take the ${domain} answer (${r.outcome})`);
    this.state = r.state;
    return [...r.effects.tell];
  }
}

/** The issue that sets aside an unknown key of Snapshot.unknownCoins (`coin`, or `coin\u0000network`). */
function coinIssue(key: string, index: number): RecordIssue {
  const [coin, network] = key.split('\u0000') as [string, string | undefined];
  return network === undefined ? { entity: 'coin', coin, index, reason: 'set aside' } : { entity: 'network', coin, network, index, reason: 'set aside' };
}

/** The gist of notifications: status and the labels that tell them apart. */
export function gist(notes: Alert[]): string[] {
  return notes.map((a) => `${a.status} ${a.labels.alertname} ${[a.labels.coin, a.labels.network, a.labels.symbol, a.event ? a.labels.kind : undefined].filter(Boolean).join('/')}`);
}
