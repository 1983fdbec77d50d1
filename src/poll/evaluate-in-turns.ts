import { nextTurn } from '../lib/timer';
import { evaluateRules, type Evaluation, type EvaluationInput } from '../rules/evaluate';

/** Coins (of a state rule) or changes (of a change rule) evaluated per turn of the event loop. */
export const EVALUATE_CHUNK = 1_000;

/**
 * evaluateRules for one rule, in parts of EVALUATE_CHUNK coins (a state rule) or changes (a
 * change rule), one turn of the event loop each: in a storm one rule holds on 8,378 networks.
 * The parts are independent (a state holds per network; a change event is per change), so the
 * result is the whole evaluation, in the same order. Ticker rules (a watch list's `missing` needs
 * every ticker at once) are evaluated whole.
 */
export async function evaluateInTurns(input: EvaluationInput): Promise<Evaluation> {
  const type = input.rules[0]?.condition.type;
  const out: Evaluation = { active: [], events: [] };
  const add = (e: Evaluation): void => {
    out.active.push(...e.active);
    out.events.push(...e.events);
  };
  if (type === 'state' && input.domain === 'coins' && input.snapshot.coins.size > EVALUATE_CHUNK) {
    const coins = [...input.snapshot.coins];
    for (let i = 0; i < coins.length; i += EVALUATE_CHUNK) {
      if (i > 0) await nextTurn();
      add(evaluateRules({ ...input, snapshot: { ...input.snapshot, coins: new Map(coins.slice(i, i + EVALUATE_CHUNK)) } }));
    }
    return out;
  }
  if (type === 'change' && input.changes.length > EVALUATE_CHUNK) {
    for (let i = 0; i < input.changes.length; i += EVALUATE_CHUNK) {
      if (i > 0) await nextTurn();
      add(evaluateRules({ ...input, changes: input.changes.slice(i, i + EVALUATE_CHUNK) }));
    }
    return out;
  }
  return evaluateRules(input);
}

/**
 * The last evaluation of each rule that reads only the snapshot (readsSnapshotOnly), or the
 * snapshot and which of its alerts are active (readsSnapshotAndActive), per exchange, with the
 * part's map it read and the version of the rule's active alerts it saw: the same map (and the
 * same version) again gives the same evaluation.
 */
export class LastEvaluations {
  private readonly byRule = new Map<string, { source: object; active: number | undefined; evaluation: Evaluation }>();

  /** The evaluation of `ruleId` when it last read `source` (the very map) with `active` the version of its active alerts, if it did. */
  get(exchange: string, ruleId: string, source: object, active?: number): Evaluation | undefined {
    const last = this.byRule.get(`${exchange}\u0000${ruleId}`);
    return last?.source === source && last.active === active ? last.evaluation : undefined;
  }

  set(exchange: string, ruleId: string, source: object, evaluation: Evaluation, active?: number): void {
    this.byRule.set(`${exchange}\u0000${ruleId}`, { source, active, evaluation });
  }

  /** Forgets one exchange's, or every one's (new rules or settings). */
  clear(exchange?: string): void {
    if (exchange === undefined) this.byRule.clear();
    else for (const key of this.byRule.keys()) if (key.startsWith(`${exchange}\u0000`)) this.byRule.delete(key);
  }
}
