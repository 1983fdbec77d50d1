/** The dialects the reference exchange speaks (`simulate --dialect`, `exchanges[].simulate.dialect`). */
export const SIMULATOR_DIALECTS = ['spot-v3', 'binance', 'mexc', 'bitget', 'kucoin', 'gate', 'htx', 'okx', 'bybit'] as const;

export type SimulatorDialect = (typeof SIMULATOR_DIALECTS)[number];

export function isSimulatorDialect(name: string): name is SimulatorDialect {
  return (SIMULATOR_DIALECTS as readonly string[]).includes(name);
}
