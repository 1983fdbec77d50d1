/** The reference exchange (`spotwatch simulate`): the spec's interface, scripted. */
export { startSimulator, type RunningSimulator } from './start-simulator';
export { createSimulator, type Simulator } from './create-simulator';
export { SIMULATOR_DEFAULTS, type SimulatorOptions } from './options';
export type { SimulatorControl, SimulatorState } from './control';
export { parseScenario, loadScenarioFile } from './scenario/parse';
export { ScenarioError } from './scenario/scenario-error';
export type { Scenario, ScenarioStep } from './scenario/types';
export { ActionError } from './actions/action-error';
export type { Action, ActionInput, ActionName } from './actions/schema';
export type { FaultEndpoint, FaultInput, FaultKind, FaultSpec } from './actions/faults-schema';
export { renderCoinsBody, renderTickersBody, type RenderOptions } from './render-bodies';
export { ADMIN_PREFIX } from './http/admin';
export { SIMULATOR_DIALECTS, isSimulatorDialect, type SimulatorDialect } from './dialects/names';
export type { SimCredentials } from './dialects/types';
