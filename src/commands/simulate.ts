import { listenProblem } from '../lib/listen-problem';
import { createLogger } from '../lib/logger';
import { loadScenarioFile, ScenarioError, startSimulator, type RunningSimulator, type Scenario, type SimCredentials, type SimulatorDialect } from '../simulator';
import type { Io } from './io';

/**
 * `spotwatch simulate`: the reference exchange, until SIGTERM or SIGINT. A scenario it cannot
 * read or use, or a port it cannot listen on, is said in a line (exit 1), never as a stack.
 */
export async function runSimulator(
  options: { listen?: { host: string; port: number } | undefined; scenario?: string | undefined; coins?: number | undefined; seed?: number | undefined;
    dialect?: SimulatorDialect | undefined; credentials?: SimCredentials | undefined;
  },
  io: Io,
): Promise<number> {
  const logger = createLogger();
  let scenario: Scenario | undefined;
  try {
    scenario = options.scenario !== undefined ? await loadScenarioFile(options.scenario) : undefined;
  } catch (err) {
    if (!(err instanceof ScenarioError)) throw err;
    for (const p of err.problems) io.stderr.write(`${p}\n`);
    return 1;
  }
  let sim: RunningSimulator;
  try {
    sim = await startSimulator({
      host: options.listen === undefined ? '127.0.0.1' : options.listen.host || '0.0.0.0',
      port: options.listen?.port ?? 8080,
      logger,
      ...(options.coins !== undefined && { coins: options.coins }),
      ...(options.seed !== undefined && { seed: options.seed }),
      ...(scenario !== undefined && { scenario }),
      ...(options.dialect !== undefined && { dialect: options.dialect }),
      ...(options.credentials !== undefined && { credentials: options.credentials }),
    });
  } catch (err) {
    const listening = listenProblem(err);
    if (listening === undefined) throw err;
    io.stderr.write(`spotwatch: ${listening} (--listen)\n`);
    return 1;
  }
  const speaking = options.dialect === undefined || options.dialect === 'spot-v3' ? '' : ` speaking ${options.dialect}`;
  io.stdout.write(`reference exchange listening on ${sim.url}${speaking}\n`);
  await new Promise<void>((done) => {
    process.once('SIGTERM', () => done());
    process.once('SIGINT', () => done());
  });
  await sim.close();
  return 0;
}
