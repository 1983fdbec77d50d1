/**
 * Runs a scenario's steps when they fall due on the injected clock. Driven by tick(): a timer
 * in the server, every API request, or a test holding a manual clock.
 */
import type { Scenario, ScenarioStep } from './types';

export interface ScenarioStatus {
  name: string;
  elapsedMs: number;
  cycle: number;
  stepsApplied: number;
  steps: number;
  repeat: number | null;
}

export interface ScenarioRunner {
  /** Apply every step due at `now`; returns how many ran. */
  tick(now: number): number;
  status(now: number): ScenarioStatus;
}

/** `run` gets each step with its due time, which effects are anchored at, however late the tick. */
export function createScenarioRunner(scenario: Scenario, startedAt: number, run: (step: ScenarioStep, dueAt: number) => void): ScenarioRunner {
  const { steps, repeat } = scenario;
  let cycle = 0;
  let index = 0;
  let applied = 0;
  return {
    tick: (now) => {
      const elapsed = now - startedAt;
      if (elapsed < 0 || steps.length === 0) return 0;
      // After a clock jump of whole cycles, start the current cycle afresh rather than replaying each.
      if (repeat !== null && Math.floor(elapsed / repeat) > cycle + 1) {
        cycle = Math.floor(elapsed / repeat);
        index = 0;
      }
      let ran = 0;
      for (;;) {
        if (index >= steps.length) {
          if (repeat === null) break;
          cycle += 1;
          index = 0;
        }
        const step = steps[index] as ScenarioStep;
        const due = (repeat === null ? 0 : cycle * repeat) + step.at;
        if (due > elapsed) break;
        index += 1;
        ran += 1;
        applied += 1;
        run(step, startedAt + due);
      }
      return ran;
    },
    status: (now) => {
      const elapsedMs = Math.max(0, now - startedAt);
      return {
        name: scenario.name,
        elapsedMs,
        cycle: repeat === null ? 0 : Math.floor(elapsedMs / repeat),
        stepsApplied: applied,
        steps: steps.length,
        repeat,
      };
    },
  };
}
