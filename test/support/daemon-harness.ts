import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfigFile, type Config } from '../../src/config';
import { Daemon } from '../../src/daemon';
import { createLogger, silentLogger } from '../../src/lib/logger';
import { startSimulator, type RunningSimulator } from '../../src/simulator';
import { waitFor } from './wait';
import { WebhookReceiver, type Received } from './webhook-receiver';

export interface Stack {
  dir: string;
  sim: RunningSimulator;
  hook: WebhookReceiver;
  configPath: string;
  config: Config;
  daemon: Daemon | undefined;
  start(): Promise<Daemon>;
  stop(): Promise<void>;
  close(): Promise<void>;
  /** Webhook bodies received so far. */
  bodies(): WebhookBody[];
}

export interface WebhookBody {
  status: string;
  groupKey: string;
  groupLabels: Record<string, string>;
  alerts: { status: string; labels: Record<string, string>; annotations: Record<string, string>; startsAt: string; endsAt: string; fingerprint: string; generatorURL: string }[];
  [k: string]: unknown;
}

/**
 * The reference exchange, a daemon watching it with fast polls, and a real webhook receiver:
 * the stack an end-to-end test of the watcher drives. `yaml` adds to the generated config.
 */
export async function stack(rules: string, options: { coins?: number; extraConfig?: string; server?: string; exchange?: string } = {}): Promise<Stack> {
  const dir = mkdtempSync(join(tmpdir(), 'spotwatch-stack-'));
  const sim = await startSimulator({ port: 0, coins: options.coins ?? 40, seed: 11, logger: silentLogger() });
  const hook = await new WebhookReceiver().start();
  writeFileSync(join(dir, 'rules.yaml'), rules);
  const configPath = join(dir, 'spotwatch.yaml');
  writeFileSync(
    configPath,
    `exchanges:
  - name: main
    base_url: ${sim.url}
    poll: { coins: 150ms, tickers: 150ms }
    retries: { max: 0 }
${options.exchange ?? ''}
server: ${options.server ?? '{ listen: "127.0.0.1:0" }'}
state_dir: ${join(dir, 'data')}
rules_file: rules.yaml
notify:
  group_by: [exchange, alertname]
  group_wait: 0s
  group_interval: 200ms
  receivers:
    - name: hook
      webhook: { url: "${hook.url}/hook" }
${options.extraConfig ?? ''}`,
  );
  const loaded = await loadConfigFile(configPath, {});
  if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
  const s: Stack = {
    dir,
    sim,
    hook,
    configPath,
    config: loaded.config,
    daemon: undefined,
    async start() {
      const logger = process.env.SPOTWATCH_TEST_LOG ? createLogger({ level: process.env.SPOTWATCH_TEST_LOG }) : silentLogger();
      s.daemon = await Daemon.start(s.config, { logger }, { path: configPath, env: {} });
      const url = s.daemon.url;
      await waitFor(async () => (await fetch(`${url}/readyz`)).status === 200, 'the daemon to be ready');
      return s.daemon;
    },
    async stop() {
      await s.daemon?.stop();
      s.daemon = undefined;
    },
    async close() {
      await s.stop();
      await hook.stop();
      await sim.close();
      rmSync(dir, { recursive: true, force: true });
    },
    bodies: () => hook.received.map((r: Received) => r.body as WebhookBody),
  };
  return s;
}
