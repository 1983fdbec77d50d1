import { Daemon } from '../../src/daemon';
import { manualClock } from '../../src/lib/clock';
import { silentLogger } from '../../src/lib/logger';
import { StateStore } from '../../src/store/store';
import { stack, type Stack } from '../support/daemon-harness';
import { waitFor } from '../support/wait';

jest.setTimeout(60_000);

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('API silences once they expire', () => {
  let s: Stack;
  let daemon: Daemon | undefined;
  afterEach(async () => {
    await daemon?.stop();
    await s.close();
  });

  it('are listed as expired for 5 days, then deleted from the store and the list (injected clock, across a restart)', async () => {
    s = await stack('rules: []\n');
    const T0 = Date.now();
    const clock = manualClock(T0);
    const start = async (): Promise<string> => {
      daemon = await Daemon.start(s.config, { logger: silentLogger(), clock, threads: 'inline' }, { path: s.configPath, env: {} });
      const url = daemon.url as string;
      await waitFor(async () => (await fetch(`${url}/readyz`)).status === 200, 'the daemon to be ready');
      return url;
    };
    const list = async (url: string): Promise<[string, string][]> =>
      ((await (await fetch(`${url}/api/v1/silences`)).json()) as { data: { comment: string; state: string }[] }).data.map((x) => [x.comment, x.state]);
    const create = async (url: string, comment: string, endsAt: number): Promise<void> => {
      const res = await fetch(`${url}/api/v1/silences`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ matchers: { coin: 'USDT' }, endsAt, comment }) });
      expect(res.status).toBe(201);
    };

    const url = await start();
    await create(url, 'short', T0 + HOUR);
    await create(url, 'long', T0 + 10 * DAY);
    clock.set(T0 + HOUR + 5 * DAY - 1);
    expect(await list(url)).toEqual([['short', 'expired'], ['long', 'active']]);
    clock.set(T0 + HOUR + 5 * DAY);
    expect(await list(url)).toEqual([['long', 'active']]);

    // The hourly prune (run at every start, too) deletes it from the store and the muter.
    await daemon?.stop();
    daemon = undefined;
    await start();
    await (daemon as Daemon | undefined)?.stop();
    daemon = undefined;
    const store = StateStore.open(s.config.state_dir);
    expect(store.loadSilences().map((x) => x.comment)).toEqual(['long']);
    store.close();
  });
});
