/**
 * The dialects the reference exchange speaks: the one list. The renderers (registry.ts) are
 * keyed by it (the compiler refuses a name without one), and the choices of `simulate --dialect`
 * and `exchanges[].simulate.dialect` are read from it.
 */
export const SIMULATOR_DIALECTS = ['spot-v3', 'binance', 'mexc', 'bitget', 'kucoin', 'gate', 'htx', 'okx', 'bybit'] as const;

export type SimulatorDialect = (typeof SIMULATOR_DIALECTS)[number];

export function isSimulatorDialect(name: string): name is SimulatorDialect {
  return (SIMULATOR_DIALECTS as readonly string[]).includes(name);
}
