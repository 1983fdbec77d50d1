/**
 * The programmatic face of the admin API: apply actions and faults, run due scenario steps,
 * reset weight budgets, read a summary.
 */
import type { Clock } from '../lib/clock';
import type { Logger } from '../lib/logger';
import { ActionError } from './actions/action-error';
import { applyAction, type ApplyContext } from './actions/apply';
import type { NetworkIds } from './actions/apply-coins';
import type { FaultEndpoint, FaultKind } from './actions/faults-schema';
import { formatIssue, validateAction, validateActions } from './actions/validate';
import type { FaultBoard } from './faults/board';
import type { WeightLimiter } from './http/weight-limiter';
import { networkCount, type Market } from './market/model';
import { noticeView, type NoticeView } from './market/notices';
import { createScenarioRunner, type ScenarioStatus } from './scenario/runner';
import type { Scenario } from './scenario/types';

export interface SimulatorState {
  coins: number;
  networks: number;
  symbols: number;
  faults: { id: number; kind: FaultKind; endpoint: FaultEndpoint; remaining: number | null; expiresInMs: number | null }[];
  scenario: ScenarioStatus | null;
}

export interface SimulatorControl {
  /**
   * Validate one action object or an array of them (all before any is applied), then apply
   * them in order. Returns how many were applied; throws ActionError (with `applied`) on
   * invalid input or on an action naming something that does not exist.
   */
  apply(input: unknown): number;
  /** Add a fault (an action `fault` without the `action` key); returns its id. */
  addFault(input: unknown): number;
  /** See FaultBoard.clear; returns how many faults were removed. */
  clearFaults(endpoint?: FaultEndpoint): number;
  /** Apply the scenario steps due on the injected clock; returns how many ran. */
  tick(): number;
  /** Forget every client's used weight and ban. */
  resetLimits(): void;
  state(): SimulatorState;
  /** Maintenance windows (with their state now) and announcements, newest first, and the exchange status they make. */
  notices(): NoticeView;
}

export interface ControlDeps {
  market: Market;
  faults: FaultBoard;
  limiter: WeightLimiter;
  clock: Clock;
  seed: number;
  scenario: Scenario | undefined;
  logger: Logger;
  /** The ids the dialect spoken names networks by, accepted beside the model's (absent: spot-v3). */
  networkIds?: NetworkIds | undefined;
}

export function createControl(deps: ControlDeps): SimulatorControl {
  const { market, faults, clock, logger } = deps;
  const ctx = (now = clock.now()): ApplyContext => ({ market, faults, now, seed: deps.seed, networkIds: deps.networkIds });
  const runner = deps.scenario === undefined
    ? undefined
    : createScenarioRunner(deps.scenario, clock.now(), (step, dueAt) => {
      try {
        applyAction(ctx(dueAt), step.action);
        logger.info({ where: step.where, action: step.action.action }, 'scenario step applied');
      } catch (err) {
        if (!(err instanceof ActionError)) throw err;
        logger.warn({ where: step.where, action: step.action.action, problems: err.problems }, 'scenario step skipped');
      }
    });

  return {
    apply: (input) => {
      const v = validateActions(input);
      if (!v.ok) throw new ActionError(v.issues.map(formatIssue));
      let applied = 0;
      for (const action of v.value) {
        try {
          applyAction(ctx(), action);
        } catch (err) {
          if (err instanceof ActionError && v.value.length > 1) throw new ActionError(err.problems.map((p) => `[${applied}]: ${p}`), applied);
          throw err;
        }
        applied += 1;
      }
      return applied;
    },
    addFault: (input) => {
      const v = validateAction(typeof input === 'object' && input !== null ? { ...input, action: 'fault' } : input);
      if (!v.ok) throw new ActionError(v.issues.map(formatIssue));
      if (v.value.action !== 'fault') throw new ActionError(['not a fault']);
      const { action: _, ...spec } = v.value;
      return faults.add(spec, clock.now());
    },
    clearFaults: (endpoint) => faults.clear(endpoint),
    tick: () => runner?.tick(clock.now()) ?? 0,
    resetLimits: () => deps.limiter.reset(),
    notices: () => noticeView(market.notices, clock.now()),
    state: () => {
      const now = clock.now();
      return {
        coins: market.coins.size,
        networks: networkCount(market),
        symbols: market.symbols.size,
        faults: faults.list().map((f) => ({
          id: f.id, kind: f.spec.kind, endpoint: f.spec.endpoint, remaining: f.remaining,
          expiresInMs: f.expiresAt === null ? null : f.expiresAt - now,
        })),
        scenario: runner?.status(now) ?? null,
      };
    },
  };
}
