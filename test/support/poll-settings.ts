import type { StepSettings } from '../../src/poll/state';
import { ChainTable } from '../../src/snapshot/chains';

const SHIPPED_CHAINS = new ChainTable();

/** Settings of no rules, the default guard for every exchange, no watch lists, the shipped chains of spot-v3. */
export const DEFAULT_SETTINGS: StepSettings = {
  rules: [],
  guards: new Map(),
  expectedSymbols: new Map(),
  chainOf: (_exchange, network) => SHIPPED_CHAINS.chainOf('spot-v3', network),
};
