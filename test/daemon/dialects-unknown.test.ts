import { createServer, type Server } from 'node:http';
import type { RunningSimulator } from '../../src/simulator';
import { rendererOf } from '../../src/simulator/dialects/registry';
import type { WebhookBody } from '../support/daemon-harness';
import { closeServer, listenLoopback, metricValue } from '../support/loopback';
import { waitFor } from '../support/wait';
import { dropTronFlag, UNKNOWN_FLAG_CASES, type UnknownFlagCase } from '../exchange/dialects/raw-networks';
import { dialectStack, exchange, type DialectStack } from './dialects-stack';

/**
 * Unknown is never closed, through the daemon, per dialect: a proxy in front of the reference
 * exchange leaves USDT's Tron withdraw flag out of the coins answer while `hiding`. Unknown
 * raises nothing and shows as its last known value (metrics, state); the next known value is
 * compared with the last known one: open -> unknown -> open is nothing, open -> unknown (closed
 * meanwhile) -> closed fires once, closed -> unknown (reopened meanwhile) -> open resolves it.
 */

jest.setTimeout(60_000);


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
  let stack: DialectStack;
  let sim: RunningSimulator;
  let proxy: HidingProxy;

  beforeAll(async () => {
    stack = await dialectStack(c.dialect, 'rules:\n  - alert: WithdrawDisabled\n    state: withdraw_disabled\n    match: { coin: USDT }\n', async (s) => {
      proxy = await new HidingProxy(s.url, c).start();
      return exchange('ex', c.dialect, proxy.url, { tickers: '1s' });
    });
    sim = stack.sim;
  });

  afterAll(async () => {
    await stack?.close();
    await proxy?.stop();
  });

  const url = (): string => stack.url;
  const told = (): string[] => stack.hook.received.flatMap((r) => (r.body as WebhookBody).alerts).map((a) => `${a.status} ${a.labels.network ?? ''}`);
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
    // Told by the engine, shown by the main thread's metrics: each in its own time.
    await waitFor(async () => told().length === 1 && (await withdrawMetric()) === 0, 'the closure told and shown');
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
