import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfigFile } from '../../src/config';
import { Daemon } from '../../src/daemon';
import { silentLogger } from '../../src/lib/logger';
import { startSimulator, type RunningSimulator } from '../../src/simulator';
import { rendererOf } from '../../src/simulator/dialects/registry';
import type { WebhookBody } from '../support/daemon-harness';
import { closeServer, listenLoopback, metricValue } from '../support/loopback';
import { waitFor } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';
import { dropTronFlag, UNKNOWN_FLAG_CASES, type UnknownFlagCase } from '../exchange/dialects/raw-networks';

/**
 * Unknown is never closed, through the daemon, per dialect: a proxy in front of the reference
 * exchange leaves USDT's Tron withdraw flag out of the coins answer while `hiding`. Unknown
 * raises nothing and shows as its last known value (metrics, state); the next known value is
 * compared with the last known one: open -> unknown -> open is nothing, open -> unknown (closed
 * meanwhile) -> closed fires once, closed -> unknown (reopened meanwhile) -> open resolves it.
 */

jest.setTimeout(60_000);

const KEY = { api_key: 'k-123', api_secret: 's-456', passphrase: 'p-789' };
const SIGNED = new Set(['binance', 'mexc', 'okx', 'bybit']);

/** A proxy that forwards every request (headers too: signatures stay valid) and edits the coins answer while `hiding`. */
class HidingProxy {
  hiding = false;
  url = '';
  private server: Server | undefined;

  constructor(
    private readonly target: string,
    private readonly c: UnknownFlagCase,
  ) {}

  async start(): Promise<this> {
    const coinsPath = rendererOf(this.c.dialect)?.paths.coins;
    this.server = createServer((req, res) => {
      const path = req.url ?? '/';
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k, v]) => k !== 'host' && k !== 'connection' && typeof v === 'string')) as Record<string, string>;
      void fetch(`${this.target}${path}`, { headers: { ...headers, 'accept-encoding': 'identity' } })
        .then(async (r) => {
          let body = await r.text();
          if (this.hiding && r.status === 200 && path.split('?')[0] === coinsPath) {
            // The coins answers of the reference exchange carry no decimal as a bare number: JSON.parse keeps every value.
            const parsed: unknown = JSON.parse(body);
            dropTronFlag(this.c, parsed);
            body = JSON.stringify(parsed);
          }
          res.writeHead(r.status, { 'content-type': 'application/json' });
          res.end(body);
        })
        .catch((err: unknown) => {
          res.writeHead(599);
          res.end(String(err));
        });
    });
    this.url = await listenLoopback(this.server);
    return this;
  }

  async stop(): Promise<void> {
    await closeServer(this.server);
  }
}

describe.each(UNKNOWN_FLAG_CASES)('the daemon reading $dialect with a network flag left out', (c) => {
  let sim: RunningSimulator;
  let proxy: HidingProxy;
  let hook: WebhookReceiver;
  let daemon: Daemon;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), `spotwatch-unknown-${c.dialect}-`));
    sim = await startSimulator({
      port: 0, coins: 20, seed: 5, logger: silentLogger(), dialect: c.dialect,
      weightLimit: { max: 1_000_000_000, windowMs: 1_000 },
      credentials: { apiKey: KEY.api_key, apiSecret: KEY.api_secret, passphrase: KEY.passphrase },
    });
    proxy = await new HidingProxy(sim.url, c).start();
    hook = await new WebhookReceiver().start();
    writeFileSync(join(dir, 'rules.yaml'), 'rules:\n  - alert: WithdrawDisabled\n    state: withdraw_disabled\n    match: { coin: USDT }\n');
    const credentials = SIGNED.has(c.dialect) ? `    credentials: { api_key: ${KEY.api_key}, api_secret: ${KEY.api_secret}${c.dialect === 'okx' ? `, passphrase: ${KEY.passphrase}` : ''} }\n` : '';
    writeFileSync(
      join(dir, 'spotwatch.yaml'),
      `exchanges:
  - name: ex
    dialect: ${c.dialect}
    base_url: ${proxy.url}
${credentials}    poll: { coins: 100ms, tickers: 1s }
    retries: { max: 0 }
    weight_limit: { max: 1000000, window: 1s }
server: { listen: "127.0.0.1:0" }
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
    const loaded = await loadConfigFile(join(dir, 'spotwatch.yaml'), {});
    if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
    daemon = await Daemon.start(loaded.config, { logger: silentLogger() }, { path: join(dir, 'spotwatch.yaml'), env: {} });
  });

  afterAll(async () => {
    await daemon?.stop();
    await hook?.stop();
    await proxy?.stop();
    await sim?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const url = (): string => daemon.url as string;
  const told = (): string[] => hook.received.flatMap((r) => (r.body as WebhookBody).alerts).map((a) => `${a.status} ${a.labels.network ?? ''}`);
  const withdrawMetric = (): Promise<number> => metricValue(url(), 'spotwatch_network_withdraw_enabled', `exchange="ex",coin="USDT",network="${c.tron}"`, -1);
  const coinsAt = async (): Promise<string> => {
    const body = (await (await fetch(`${url()}/api/v1/state`)).json()) as { data: { exchanges: { polls: { coins: { at: string } | null } }[] } };
    return body.data.exchanges[0]?.polls.coins?.at ?? '';
  };
  /** `n` more coin polls (not a sleep: the daemon's own poll times). */
  const polls = async (n: number): Promise<void> => {
    for (let i = 0; i < n; i++) {
      const seen = await coinsAt();
      await waitFor(async () => (await coinsAt()) !== seen, 'another coin poll');
    }
  };
  const setTron = (withdrawEnable: boolean): void => {
    sim.control.apply({ action: 'set_network', coin: 'USDT', network: 'Tron(TRC20)', set: { withdrawEnable } });
  };

  it('raises nothing while unknown, shows the last known value, and compares the next known value with it', async () => {
    await waitFor(async () => (await withdrawMetric()) === 1, 'the baseline');

    // open -> unknown -> open: nothing.
    proxy.hiding = true;
    await polls(3);
    expect(await withdrawMetric()).toBe(1);
    proxy.hiding = false;
    await polls(2);
    expect(told()).toEqual([]);

    // open -> unknown while it closes -> closed: still nothing while unknown, then one alert.
    proxy.hiding = true;
    setTron(false);
    await polls(3);
    expect([told(), await withdrawMetric()]).toEqual([[], 1]);
    proxy.hiding = false;
    await waitFor(() => told().length === 1, 'the closure told');
    expect([told(), await withdrawMetric()]).toEqual([[`firing ${c.tron}`], 0]);

    // closed -> unknown while it reopens: still closed (last known), then resolved once known.
    proxy.hiding = true;
    setTron(true);
    await polls(3);
    expect([told(), await withdrawMetric()]).toEqual([[`firing ${c.tron}`], 0]);
    proxy.hiding = false;
    await waitFor(() => told().length === 2, 'the reopening told');
    await polls(2);
    expect([told(), await withdrawMetric()]).toEqual([[`firing ${c.tron}`, `resolved ${c.tron}`], 1]);
  });
});
