import type { Agent } from 'undici';
import { DEFAULT_SCENARIO_FILE, type ExchangeConfig } from '../config';
import { ExchangeClient } from '../exchange/client';
import { dialects } from '../exchange/dialects/registry';
import type { Clock } from '../lib/clock';
import { parseHostPort } from '../lib/host-port';
import { errorMessage } from '../lib/error-message';
import { listenProblem } from '../lib/listen-problem';
import type { Logger } from '../lib/logger';
import { isSimulatorDialect, loadScenarioFile, ScenarioError, startSimulator, type RunningSimulator, type SimCredentials } from '../simulator';

/** Where each configured exchange is reached, and the client that reads it: shared by the daemon and `once`. */

/** An exchange as the watcher reaches it: its base URL, and the embedded one to stop with it. */
export interface Target {
  config: ExchangeConfig;
  baseUrl: string;
  embedded?: RunningSimulator;
}

function simulatorCredentials(c: { api_key: string; api_secret: string; passphrase?: string | undefined }): SimCredentials {
  return { apiKey: c.api_key, apiSecret: c.api_secret, ...(c.passphrase !== undefined && { passphrase: c.passphrase }) };
}

export async function reach(ex: ExchangeConfig, clock: Clock, logger: Logger, withScenario: boolean): Promise<Target> {
  if (ex.base_url !== undefined) return { config: ex, baseUrl: ex.base_url };
  const sim = ex.simulate;
  const at = (sim?.listen !== undefined ? parseHostPort(sim.listen) : undefined) ?? { host: '127.0.0.1', port: 0 };
  const scenario = withScenario ? await loadScenarioFile(sim?.scenario ?? DEFAULT_SCENARIO_FILE) : undefined;
  const embedded = await startSimulator({
    host: at.host || '0.0.0.0',
    port: at.port,
    clock,
    logger: logger.child({ component: 'simulator', exchange: ex.name }),
    ...(sim?.coins !== undefined && { coins: sim.coins }),
    ...(sim?.seed !== undefined && { seed: sim.seed }),
    ...(scenario !== undefined && { scenario }),
    // The embedded exchange speaks the exchange's dialect (simulate.dialect can only repeat it).
    ...(isSimulatorDialect(ex.dialect) && { dialect: ex.dialect }),
    ...(sim?.credentials !== undefined && { credentials: simulatorCredentials(sim.credentials) }),
  });
  logger.info({ exchange: ex.name, url: embedded.url }, 'started the embedded reference exchange');
  return { config: ex, baseUrl: embedded.url, embedded };
}

/**
 * Why `ex`'s embedded exchange did not start, as `spotwatch simulate` says it: a scenario's
 * problems (`file:line:col: ...`, one a line), or a port it cannot listen on in one line.
 */
export function embeddedProblem(ex: ExchangeConfig, err: unknown): string {
  if (err instanceof ScenarioError) return err.problems.join('\n');
  const listening = listenProblem(err);
  if (listening !== undefined) return `spotwatch: ${listening} (simulate.listen of exchange ${ex.name})`;
  return `spotwatch: cannot start the embedded reference exchange of ${ex.name}: ${errorMessage(err)}`;
}

export function clientFor(target: Target, clock: Clock, dispatcher: Agent, logger: Logger, baseUrl = target.baseUrl): ExchangeClient {
  const ex = target.config;
  return new ExchangeClient({
    exchange: ex.name,
    dialect: dialects.named(ex.dialect),
    baseUrl,
    timeoutMs: ex.timeout,
    maxBodyBytes: ex.max_body_bytes,
    retries: { max: ex.retries.max, baseDelayMs: ex.retries.base_delay, maxDelayMs: ex.retries.max_delay },
    // A poll's retries end within its interval, so a failing exchange is reported down on time.
    retryWithinMs: { coins: ex.poll.coins, tickers: ex.poll.tickers },
    weightLimit: { max: ex.weight_limit.max, windowMs: ex.weight_limit.window },
    ...(ex.headers !== undefined && { headers: ex.headers }),
    ...(ex.credentials !== undefined && { credentials: ex.credentials }),
    dispatcher,
    clock,
    onRetry: (err, attempt, delayMs) =>
      logger.debug({ exchange: ex.name, endpoint: err.endpoint, kind: err.kind, attempt, delayMs }, 'retrying a failed request'),
  });
}
