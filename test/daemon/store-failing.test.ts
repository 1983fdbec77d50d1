import { COINS_PATH } from '../../src/exchange/wire';
import { StateStore } from '../../src/store/store';
import { stack, type WebhookBody } from '../support/daemon-harness';
import { waitFor } from '../support/wait';

jest.setTimeout(90_000);

/** Every method of the store that writes. */
const WRITES = new Set([
  'transaction', 'saveSnapshot', 'saveAlerts', 'appendChanges', 'commitDeliveries', 'addPending', 'deliveryDone', 'deliveryRetry',
  'deliveryDead', 'saveSilence', 'saveHistory', 'pruneChanges', 'pruneDeliveries', 'writeHeld',
]);

/**
 * A real store on a disk that can be "filled": while `full`, every write is refused with the
 * error SQLite gives for a full disk (SQLITE_FULL), before it touches the file, and counted.
 */
function disk() {
  const d = {
    full: false,
    refused: 0,
    open: (...args: Parameters<typeof StateStore.open>): StateStore =>
      new Proxy(StateStore.open(...args), {
        get(target, key) {
          const v: unknown = Reflect.get(target, key, target);
          if (typeof v !== 'function') return v;
          const fn = v as (...a: unknown[]) => unknown;
          if (!WRITES.has(String(key))) return fn.bind(target);
          return (...a: unknown[]) => {
            if (d.full) {
              d.refused++;
              throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
            }
            return fn.apply(target, a);
          };
        },
      }),
  };
  return d;
}

const RULES = `rules:
  - alert: WithdrawClosed
    state: withdraw_disabled
  - alert: WithdrawEvent
    change: withdraw_disabled
`;

interface WireCoin {
  coin: string;
  withdrawAllEnable: boolean;
  networkList: { network: string; withdrawEnable: boolean }[];
}

/** The value of one series in the exposition text. */
function value(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('a state store that cannot be written (a full disk)', () => {
  it('delivers every alert and change event once, counts every failed write, raises StoreFailing, and writes the history when the disk is back', async () => {
    const d = disk();
    const s = await stack(RULES, { coins: 30, deps: { openStore: d.open } });
    try {
      const daemon = await s.start();
      const api = daemon.url as string;
      const coins = (await (await fetch(`${s.sim.url}${COINS_PATH}`)).json()) as WireCoin[];
      const closing = coins.flatMap((c) => c.networkList.filter((n) => n.withdrawEnable).map((n) => `${c.coin}/${n.network}`)).sort();
      const allClosing = coins.filter((c) => c.withdrawAllEnable).map((c) => c.coin).sort();
      const closed = coins.flatMap((c) => c.networkList.filter((n) => !n.withdrawEnable).map((n) => `${c.coin}/${n.network}`)).sort();
      expect(closing.length).toBeGreaterThan(40);
      // What is closed from the start is told first, while the disk is fine.
      if (closed.length > 0) await waitFor(() => s.bodies().length === 1, 'the networks closed from the start');
      const base = s.bodies().length;
      const after = (): WebhookBody[] => s.bodies().slice(base);

      // The disk fills; then every network closes at once.
      d.full = true;
      for (const id of closing) {
        const [coin, network] = id.split('/') as [string, string];
        s.sim.control.apply({ action: 'set_network', coin, network, set: { withdrawEnable: false } });
      }

      // Told while the disk is full: the alerts, the change events, and StoreFailing.
      const byName = (name: string, status = 'firing'): WebhookBody[] => after().filter((b) => b.groupLabels.alertname === name && b.status === status);
      await waitFor(() => byName('WithdrawClosed').length > 0 && byName('WithdrawEvent').length > 0 && byName('StoreFailing').length > 0, 'the notifications while the disk is full', 20_000);
      const subjects = (b: WebhookBody[]): string[] => b.flatMap((x) => x.alerts.map((a) => `${a.labels.coin}/${a.labels.network}`)).sort();
      // (A group's notification carries every alert of the group: those closed before too.)
      expect(subjects(byName('WithdrawClosed'))).toEqual([...closing, ...closed].sort());
      expect(subjects(byName('WithdrawEvent'))).toEqual(closing);
      expect(byName('StoreFailing').map((b) => b.alerts.map((a) => [a.status, a.labels, a.annotations.summary]))).toEqual([
        [['firing', { alertname: 'StoreFailing', exchange: 'main', severity: 'critical' }, 'spotwatch cannot write its state store (main)']],
      ]);
      expect(after()).toHaveLength(3);
      // Nothing of it reached the history yet.
      const changes = async (kind: string) => ((await (await fetch(`${api}/api/v1/changes?kind=${kind}&limit=1000`)).json()) as { data: { coin: string; network?: string }[] }).data;
      expect(await changes('withdraw_disabled')).toEqual([]);
      const during = await (await fetch(`${api}/metrics`)).text();
      expect(value(during, 'spotwatch_store_write_errors_total')).toBeGreaterThan(0);
      expect(value(during, 'spotwatch_notifications_total{receiver="hook",outcome="failed"}')).toBe(0);

      // Space comes back: the history of that poll is written, once, and StoreFailing resolves.
      d.full = false;
      await waitFor(async () => (await changes('withdraw_disabled')).length === closing.length, 'the history rows after the disk is back');
      expect((await changes('withdraw_disabled')).map((c) => `${c.coin}/${c.network}`).sort()).toEqual(closing);
      expect((await changes('withdraw_all_disabled')).map((c) => c.coin).sort()).toEqual(allClosing);
      await waitFor(() => byName('StoreFailing', 'resolved').length === 1, 'StoreFailing resolved');
      await waitFor(async () => value(await (await fetch(`${api}/metrics`)).text(), 'spotwatch_outbox_pending{receiver="hook"}') === 0, 'an empty outbox');
      await s.stop();

      // Every refused write was counted, exactly; nothing was dropped.
      const metrics = await daemon.registry.metrics();
      expect(d.refused).toBeGreaterThan(0);
      expect(value(metrics, 'spotwatch_store_write_errors_total')).toBe(d.refused);
      expect(value(metrics, 'spotwatch_history_rows_dropped_total')).toBe(0);
      expect(value(metrics, 'spotwatch_notifications_dropped_total{receiver="hook"}')).toBe(0);
      expect(value(metrics, 'spotwatch_notifications_total{receiver="hook",outcome="success"}')).toBe(base + 4);
      expect(value(metrics, 'spotwatch_notifications_total{receiver="hook",outcome="failed"}')).toBe(0);
      expect(after()).toHaveLength(4);

      // What was told while the disk was full is on disk now: a restart tells none of it again.
      // One network opens again: the only news, and the only notification after the restart.
      await s.start();
      const [coin, network] = (closing[0] as string).split('/') as [string, string];
      s.sim.control.apply({ action: 'set_network', coin, network, set: { withdrawEnable: true } });
      await waitFor(() => after().length > 4, 'the next notification after the restart');
      const last = after()[4] as WebhookBody;
      expect([last.groupLabels.alertname, last.alerts.filter((a) => a.status === 'resolved').map((a) => `${a.labels.coin}/${a.labels.network}`)]).toEqual(['WithdrawClosed', [closing[0]]]);
      await s.stop();
      expect(after()).toHaveLength(5);
    } finally {
      await s.close();
    }
  });
});
