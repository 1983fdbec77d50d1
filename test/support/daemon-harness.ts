import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfigFile, type Config } from '../../src/config';
import { Daemon, type DaemonDeps } from '../../src/daemon';
import { createLogger, silentLogger, type Logger } from '../../src/lib/logger';
import { startSimulator, type RunningSimulator } from '../../src/simulator';
import { ExchangeDouble } from './exchange-double';
import { waitFor } from './wait';
import { WebhookReceiver, type Received } from './webhook-receiver';

export interface Stack {
  dir: string;
  /** The first exchange's reference exchange. */
  sim: RunningSimulator;
  /** Every reference exchange, by exchange name. */
  sims: Map<string, RunningSimulator>;
  hook: WebhookReceiver;
  configPath: string;
  config: Config;
  daemon: Daemon | undefined;
  start(): Promise<Daemon>;
  stop(): Promise<void>;
  close(): Promise<void>;
  /** Rewrites the config with these options changed (the next start reads it). */
  reconfigure(changes: StackOptions): Promise<void>;
  /** Webhook bodies received so far. */
  bodies(): WebhookBody[];
}

export interface StackOptions {
  /** Coins of the reference exchange (default 40), when there is one exchange. */
  coins?: number;
  /** The exchanges, each with its own reference exchange (default one, "main"). */
  exchanges?: { name: string; coins?: number; seed?: number }[];
  /** The exchanges written into the config (default every one); the others' reference exchanges keep running. */
  watch?: string[];
  /** Extra YAML lines for every exchange (indented as its keys). */
  exchange?: string;
  /** The exchanges' poll intervals. */
  poll?: string;
  server?: string;
  group_wait?: string;
  /** The receivers (YAML list items), given the webhook receiver's URL; default one webhook "hook". */
  receivers?: (hookUrl: string) => string;
  /** Extra top-level YAML. */
  extraConfig?: string;
  /** The daemon's logger (default silent, or SPOTWATCH_TEST_LOG's level). */
  logger?: Logger;
  /** Other parts the daemon is given (a store that fails, say). */
  deps?: Omit<DaemonDeps, 'logger'>;
}

export interface WebhookBody {
  status: string;
  groupKey: string;
  groupLabels: Record<string, string>;
  alerts: { status: string; labels: Record<string, string>; annotations: Record<string, string>; startsAt: string; endsAt: string; fingerprint: string; generatorURL: string }[];
  [k: string]: unknown;
}

/**
 * Reference exchanges, a daemon watching them with fast polls, and a real webhook receiver:
 * the stack an end-to-end test of the watcher drives. The options add to the generated config.
 */
export async function stack(rules: string, options: StackOptions = {}): Promise<Stack> {
  const dir = mkdtempSync(join(tmpdir(), 'spotwatch-stack-'));
  const sims = new Map<string, RunningSimulator>();
  for (const ex of options.exchanges ?? [{ name: 'main', coins: options.coins ?? 40, seed: 11 }]) {
    sims.set(ex.name, await startSimulator({ port: 0, coins: ex.coins ?? 40, seed: ex.seed ?? 11, logger: silentLogger() }));
  }
  const hook = await new WebhookReceiver().start();
  writeFileSync(join(dir, 'rules.yaml'), rules);
  const configPath = join(dir, 'spotwatch.yaml');
  let current = options;
  const load = async (): Promise<Config> => {
    writeFileSync(configPath, configText(current, sims, hook.url, dir));
    const loaded = await loadConfigFile(configPath, {});
    if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
    return loaded.config;
  };
  const s: Stack = {
    dir,
    sim: sims.values().next().value as RunningSimulator,
    sims,
    hook,
    configPath,
    config: await load(),
    daemon: undefined,
    async start() {
      const env = process.env.SPOTWATCH_TEST_LOG;
      const logger = current.logger ?? (env ? createLogger({ level: env }) : silentLogger());
      s.daemon = await Daemon.start(s.config, { logger, threads: engineHost(current.deps), ...current.deps }, { path: configPath, env: {} });
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
      for (const sim of sims.values()) await sim.close();
      rmSync(dir, { recursive: true, force: true });
    },
    async reconfigure(changes) {
      current = { ...current, ...changes };
      s.config = await load();
    },
    bodies: () => hook.received.map((r: Received) => r.body as WebhookBody),
  };
  return s;
}

function configText(o: StackOptions, sims: ReadonlyMap<string, RunningSimulator>, hookUrl: string, dir: string): string {
  const exchanges = [...sims].filter(([name]) => o.watch?.includes(name) ?? true).map(
    ([name, sim]) => `  - name: ${name}
    base_url: ${sim.url}
    poll: ${o.poll ?? '{ coins: 150ms, tickers: 150ms }'}
    retries: { max: 0 }
${o.exchange ?? ''}`,
  );
  const receivers = o.receivers?.(hookUrl) ?? `    - name: hook
      webhook: { url: "${hookUrl}/hook" }
`;
  return `exchanges:
${exchanges.join('')}
server: ${o.server ?? '{ listen: "127.0.0.1:0" }'}
state_dir: ${join(dir, 'data')}
rules_file: rules.yaml
notify:
  group_by: [exchange, alertname]
  group_wait: ${o.group_wait ?? '0s'}
  group_interval: 200ms
  receivers:
${receivers}
${o.extraConfig ?? ''}`;
}

/** A started stack whose first exchange is reached through an ExchangeDouble in front of its reference exchange. */
export interface DoubledStack {
  s: Stack;
  /** Set `double.respond` to change what the exchange answers. */
  double: ExchangeDouble;
  /** The daemon's HTTP address. */
  url: string;
  close(): Promise<void>;
}

export async function stackBehindDouble(rules: string, options: StackOptions = {}): Promise<DoubledStack> {
  const s = await stack(rules, options);
  const double = await new ExchangeDouble(s.sim.url).start();
  const ex = s.config.exchanges[0];
  if (ex === undefined) throw new Error('no exchange in the config');
  ex.base_url = double.url;
  const url = (await s.start()).url as string;
  return {
    s,
    double,
    url,
    close: async () => {
      await s.close();
      await double.stop();
    },
  };
}

/**
 * The engine in a worker thread, as in production (it runs the build: `npm test` builds first),
 * unless the test injects what cannot cross to another thread: a clock, a store, a scheduler.
 */
export function engineHost(deps: Omit<DaemonDeps, 'logger'> | undefined): 'worker' | 'inline' {
  return deps?.clock !== undefined || deps?.openStore !== undefined || deps?.scheduler !== undefined ? 'inline' : 'worker';
}
