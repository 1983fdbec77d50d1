import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { COINS_PATH, type WireCoin } from '../../src/exchange/dialects/spot-v3/wire';
import { Daemon } from '../../src/daemon';
import { silentLogger } from '../../src/lib/logger';
import { StateDirLocked } from '../../src/store/lock';
import { stack, type WebhookBody } from '../support/daemon-harness';
import { waitFor } from '../support/wait';
import { capturedLogger } from '../support/log-capture';

jest.setTimeout(90_000);

const RULES = `rules:
  - alert: WithdrawClosed
    state: withdraw_disabled
  - alert: WithdrawEvent
    change: withdraw_disabled
`;

/** How often the daemon's threads look at the store's file here (15 s in production). */
const CHECK_MS = 100;

async function polls(daemon: Daemon): Promise<number> {
  const values = (await daemon.registry.getSingleMetric('spotwatch_poll_duration_seconds')?.get())?.values ?? [];
  return values.find((v) => (v as { metricName?: string }).metricName === 'spotwatch_poll_duration_seconds_count' && v.labels.endpoint === 'coins')?.value ?? 0;
}

const shape = (b: WebhookBody): string => `${b.groupLabels.alertname} ${b.status} ${b.alerts.filter((a) => a.status === 'firing').map((a) => `${a.labels.coin}/${a.labels.network}`).sort().join(' ')}`;

describe('the state store file deleted while the daemon runs', () => {
  it('fires StoreFailing, logs it, writes a new file from what the daemon holds, and a restart tells nothing again', async () => {
    const { logger, lines } = capturedLogger('info');
    const s = await stack(RULES, { coins: 20, poll: '{ coins: 150ms, tickers: 1s }', logger, deps: { storeCheckMs: CHECK_MS } });
    try {
      // Every network open at the start; four close one by one after it.
      const coins = (await (await fetch(`${s.sim.url}${COINS_PATH}`)).json()) as WireCoin[];
      for (const c of coins) for (const n of c.networkList) if (!n.withdrawEnable) s.sim.control.apply({ action: 'set_network', coin: c.coin, network: n.network, set: { withdrawEnable: true } });
      const open = coins.flatMap((c) => c.networkList.map((n) => [c.coin, n.network] as [string, string]));
      const [a, b, c, d] = open as [[string, string], [string, string], [string, string], [string, string]];
      const id = (n: [string, string]): string => `${n[0]}/${n[1]}`;
      const close = async (n: [string, string], bodies: number): Promise<void> => {
        s.sim.control.apply({ action: 'set_network', coin: n[0], network: n[1], set: { withdrawEnable: false } });
        await waitFor(() => s.bodies().length === bodies, `the notifications of ${id(n)} closing`);
      };

      await s.start();
      await close(a, 2);
      await close(b, 4);
      await close(c, 6);

      // The file goes, with its WAL and shared memory.
      const db = join(s.config.state_dir, 'spotwatch.db');
      for (const ext of ['', '-wal', '-shm']) rmSync(`${db}${ext}`);
      await waitFor(() => s.bodies().filter((x) => x.groupLabels.alertname === 'StoreFailing').length === 2, 'StoreFailing firing, then resolved');
      const failing = s.bodies().filter((x) => x.groupLabels.alertname === 'StoreFailing');
      expect(failing.map((x) => x.alerts.map((al) => [al.status, al.labels, al.annotations.summary]))).toEqual([
        [['firing', { alertname: 'StoreFailing', exchange: 'main', severity: 'critical' }, 'spotwatch cannot write its state store (main)']],
        [['resolved', { alertname: 'StoreFailing', exchange: 'main', severity: 'critical' }, 'spotwatch cannot write its state store (main)']],
      ]);
      expect(failing[0]?.alerts[0]?.annotations.description).toBe(`Writes fail: the state store file ${db} was deleted while in use. Notifications are held in memory and change history is queued until the store takes writes again.`);
      expect(lines.filter((l) => l.msg === "state store file deleted while in use; a new one is written at once from what the daemon holds, the poll path's writes wait in memory until the next check")).toEqual([
        expect.objectContaining({ level: 50, file: db }),
      ]);
      expect(lines.filter((l) => l.msg === 'state store file written again from what the daemon held; the poll path writes to it from the next check').map((l) => l.file)).toEqual([db]);
      expect(existsSync(db)).toBe(true);

      // Watching goes on, into the new file.
      await close(d, 10);
      await s.stop();
      // (Two groups that fall due together go in either order.)
      expect(s.bodies().map(shape).sort()).toEqual([
        `WithdrawClosed firing ${id(a)}`,
        `WithdrawEvent firing ${id(a)}`,
        `WithdrawClosed firing ${[a, b].map(id).sort().join(' ')}`,
        `WithdrawEvent firing ${id(b)}`,
        `WithdrawClosed firing ${[a, b, c].map(id).sort().join(' ')}`,
        `WithdrawEvent firing ${id(c)}`,
        'StoreFailing firing undefined/undefined',
        'StoreFailing resolved ',
        `WithdrawClosed firing ${[a, b, c, d].map(id).sort().join(' ')}`,
        `WithdrawEvent firing ${id(d)}`,
      ].sort());

      // A restart on the same state_dir tells nothing again: eight polls and their flushes go by in silence.
      const again = await s.start();
      await waitFor(async () => (await polls(again)) >= 8, 'eight polls after the restart');
      expect(s.bodies()).toHaveLength(10);
      // One network opens: the only news, and the only notification.
      s.sim.control.apply({ action: 'set_network', coin: a[0], network: a[1], set: { withdrawEnable: true } });
      await waitFor(() => s.bodies().length > 10, 'the next notification after the restart');
      await s.stop();
      const last = s.bodies().slice(10);
      expect(last.map((x) => [x.groupLabels.alertname, x.alerts.filter((al) => al.status === 'resolved').map((al) => `${al.labels.coin}/${al.labels.network}`)])).toEqual([['WithdrawClosed', [id(a)]]]);
    } finally {
      await s.close();
    }
  });

  it('deleted and the daemon stopped before any look noticed it: the stop writes the new file, and a restart tells nothing again', async () => {
    // No look during the test: only the stop can notice.
    const s = await stack(RULES, { coins: 20, poll: '{ coins: 150ms, tickers: 1s }', deps: { storeCheckMs: 3_600_000 } });
    try {
      const coins = (await (await fetch(`${s.sim.url}${COINS_PATH}`)).json()) as WireCoin[];
      for (const c of coins) for (const n of c.networkList) if (!n.withdrawEnable) s.sim.control.apply({ action: 'set_network', coin: c.coin, network: n.network, set: { withdrawEnable: true } });
      const [coin, network] = coins.flatMap((c) => c.networkList.map((n) => [c.coin, n.network] as const))[0] as [string, string];
      await s.start();
      s.sim.control.apply({ action: 'set_network', coin, network, set: { withdrawEnable: false } });
      await waitFor(() => s.bodies().length === 2, 'the closure told');
      const db = join(s.config.state_dir, 'spotwatch.db');
      for (const ext of ['', '-wal', '-shm']) rmSync(`${db}${ext}`);
      await s.stop();
      expect(existsSync(db)).toBe(true);

      const again = await s.start();
      await waitFor(async () => (await polls(again)) >= 8, 'eight polls after the restart');
      await s.stop();
      expect(s.bodies().map(shape).sort()).toEqual([`WithdrawClosed firing ${coin}/${network}`, `WithdrawEvent firing ${coin}/${network}`]);
    } finally {
      await s.close();
    }
  });

  it('the whole state_dir deleted: the store and the lock both come back, so a second daemon is still refused', async () => {
    const { logger, lines } = capturedLogger('info');
    const s = await stack(RULES, { coins: 20, poll: '{ coins: 150ms, tickers: 1s }', logger, deps: { storeCheckMs: CHECK_MS } });
    try {
      await s.start();
      const lockFile = join(s.config.state_dir, 'spotwatch.lock');
      const db = join(s.config.state_dir, 'spotwatch.db');
      const held = readFileSync(lockFile, 'utf8');

      rmSync(s.config.state_dir, { recursive: true });
      await waitFor(() => lines.some((l) => l.msg === 'state store file written again from what the daemon held; the poll path writes to it from the next check'), 'the store written again');
      await waitFor(() => existsSync(lockFile), 'the lock written again');
      expect(readFileSync(lockFile, 'utf8')).toBe(held);
      expect(existsSync(db)).toBe(true);
      expect(lines.filter((l) => l.msg === 'state_dir lock file deleted while running; written again')).toEqual([expect.objectContaining({ level: 40, lock: lockFile })]);

      const second = Daemon.start(s.config, { logger: silentLogger(), threads: 'worker' }, { path: s.configPath, env: {} });
      await expect(second).rejects.toThrow(StateDirLocked);
      await s.stop();
      expect(existsSync(lockFile)).toBe(false);
    } finally {
      await s.close();
    }
  });

  it("its WAL deleted alone (the database file kept): noticed as the file deleted is, and the file written again", async () => {
    const { logger, lines } = capturedLogger('info');
    const s = await stack(RULES, { coins: 20, poll: '{ coins: 150ms, tickers: 1s }', logger, deps: { storeCheckMs: CHECK_MS } });
    try {
      await s.start();
      const db = join(s.config.state_dir, 'spotwatch.db');
      rmSync(`${db}-wal`);
      await waitFor(() => s.bodies().filter((x) => x.groupLabels.alertname === 'StoreFailing').length === 2, 'StoreFailing firing, then resolved');
      const failing = s.bodies().filter((x) => x.groupLabels.alertname === 'StoreFailing');
      expect(failing.map((x) => x.alerts[0]?.status)).toEqual(['firing', 'resolved']);
      expect(failing[0]?.alerts[0]?.annotations.description).toBe(`Writes fail: the state store's WAL (${db}-wal or -shm) was deleted while in use. Notifications are held in memory and change history is queued until the store takes writes again.`);
      expect(lines.filter((l) => l.msg === "state store WAL file deleted while in use (the database file kept); a new store file is written at once from what the daemon holds, the poll path's writes wait in memory until the next check")).toEqual([
        expect.objectContaining({ level: 50, file: db }),
      ]);
      expect(lines.filter((l) => l.msg === 'state store file written again from what the daemon held; the poll path writes to it from the next check').map((l) => l.file)).toEqual([db]);
      expect(existsSync(`${db}-wal`)).toBe(true);
    } finally {
      await s.close();
    }
  });
});
