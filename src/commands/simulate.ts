import { createLogger } from '../lib/logger';
import { loadScenarioFile, startSimulator, type SimCredentials, type SimulatorDialect } from '../simulator';
import type { Io } from './io';

/** `spotwatch simulate`: the reference exchange, until SIGTERM or SIGINT. */
export async function runSimulator(
  options: { listen?: { host: string; port: number } | undefined; scenario?: string | undefined; coins?: number | undefined; seed?: number | undefined;
    dialect?: SimulatorDialect | undefined; credentials?: SimCredentials | undefined;
  },
  io: Io,
): Promise<number> {
  const logger = createLogger();
  const scenario = options.scenario !== undefined ? await loadScenarioFile(options.scenario) : undefined;
  const sim = await startSimulator({
    host: options.listen === undefined ? '127.0.0.1' : options.listen.host || '0.0.0.0',
    port: options.listen?.port ?? 8080,
    logger,
    ...(options.coins !== undefined && { coins: options.coins }),
    ...(options.seed !== undefined && { seed: options.seed }),
    ...(scenario !== undefined && { scenario }),
    ...(options.dialect !== undefined && { dialect: options.dialect }),
    ...(options.credentials !== undefined && { credentials: options.credentials }),
  });
  const speaking = options.dialect === undefined || options.dialect === 'spot-v3' ? '' : ` speaking ${options.dialect}`;
  io.stdout.write(`reference exchange listening on ${sim.url}${speaking}\n`);
  await new Promise<void>((done) => {
    process.once('SIGTERM', () => done());
    process.once('SIGINT', () => done());
  });
  await sim.close();
  return 0;
}
