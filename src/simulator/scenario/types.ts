import type { Action } from '../actions/schema';

export interface ScenarioStep {
  /** Milliseconds after the scenario starts (within each cycle when it repeats). */
  at: number;
  action: Action;
  /** `FILE:LINE:COL` of the step, for the log line when it cannot be applied. */
  where: string;
}

export interface Scenario {
  name: string;
  description?: string;
  /** Length of one cycle when the timeline loops; null when it runs once. */
  repeat: number | null;
  /** In order of `at` (steps with the same `at` keep their file order). */
  steps: ScenarioStep[];
}
