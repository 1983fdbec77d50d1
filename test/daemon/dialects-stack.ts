import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfigFile } from '../../src/config';
import { Daemon } from '../../src/daemon';
import { silentLogger, type Logger } from '../../src/lib/logger';
import { startSimulator, type RunningSimulator } from '../../src/simulator';
import type { SimulatorDialect } from '../../src/simulator/dialects/names';
import { WebhookReceiver } from '../support/webhook-receiver';

/**
 * What the per-dialect daemon tests (dialects*.test.ts) stand on: the reference exchange
 * speaking one dialect (accepting KEY on its signed endpoints), a webhook receiver, and a daemon
 * watching exchanges written by `exchange`, polling fast.
 */

export const KEY = { api_key: 'k-123', api_secret: 's-456', passphrase: 'p-789' };
export const SIGNED = new Set(['binance', 'mexc', 'okx', 'bybit']);

/** One exchange of the config: `dialect` at `url`, signed with `secret` (the right one unless said). */
export function exchange(name: string, dialect: string, url: string, { secret = KEY.api_secret, tickers = '100ms' } = {}): string {
  const pass = dialect === 'okx' ? `, passphrase: ${KEY.passphrase}` : '';
  const credentials = SIGNED.has(dialect) ? `    credentials: { api_key: ${KEY.api_key}, api_secret: ${secret}${pass} }\n` : '';
  return `  - name: ${name}
    dialect: ${dialect}
    base_url: ${url}
${credentials}    poll: { coins: 100ms, tickers: ${tickers} }
    retries: { max: 0 }
    weight_limit: { max: 1000000, window: 1s }
`;
}

export interface DialectStack {
  sim: RunningSimulator;
  hook: WebhookReceiver;
  daemon: Daemon;
  /** The daemon's HTTP address (a restart changes it). */
  url: string;
  /** Stops the daemon and starts another on the same config and state_dir (what a restart keeps is in the store). */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** Starts the stack; `exchanges` writes the config's exchanges given the reference exchange. */
export async function dialectStack(dialect: Exclude<SimulatorDialect, 'spot-v3'>, rules: string, exchanges: (sim: RunningSimulator) => string | Promise<string>, { logger = silentLogger() }: { logger?: Logger } = {}): Promise<DialectStack> {
  const dir = mkdtempSync(join(tmpdir(), `spotwatch-${dialect}-`));
  const sim = await startSimulator({
    port: 0,
    coins: 20,
    seed: 5,
    logger: silentLogger(),
    dialect,
    weightLimit: { max: 1_000_000_000, windowMs: 1_000 },
    credentials: { apiKey: KEY.api_key, apiSecret: KEY.api_secret, passphrase: KEY.passphrase },
  });
  const hook = await new WebhookReceiver().start();
  writeFileSync(join(dir, 'rules.yaml'), rules);
  const configPath = join(dir, 'spotwatch.yaml');
  writeFileSync(
    configPath,
    `exchanges:
${await exchanges(sim)}server: { listen: "127.0.0.1:0" }
state_dir: ${join(dir, 'data')}
rules_file: rules.yaml
notify:
  group_by: [exchange, alertname]
  group_wait: 0s
  group_interval: 100ms
  receivers:
    - name: hook
      webhook: { url: "${hook.url}/hook" }
`,
  );
  const loaded = await loadConfigFile(configPath, {});
  if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
  const start = (): Promise<Daemon> => Daemon.start(loaded.config, { logger, threads: 'worker' }, { path: configPath, env: {} });
  const daemon = await start();
  const s: DialectStack = {
    sim,
    hook,
    daemon,
    url: daemon.url as string,
    async restart() {
      await s.daemon.stop();
      s.daemon = await start();
      s.url = s.daemon.url as string;
    },
    async close() {
      await s.daemon.stop();
      await hook.stop();
      await sim.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return s;
}
