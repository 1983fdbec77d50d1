import type Database from 'better-sqlite3';
import type { Registry } from 'prom-client';
import { COINS_PATH, type WireCoin as Coin } from '../../src/exchange/dialects/spot-v3/wire';
import { StateStore } from '../../src/store/store';
import { stack, type WebhookBody } from '../support/daemon-harness';
import { waitFor } from '../support/wait';

jest.setTimeout(90_000);

/** Every method of the store that writes. */
const WRITES = new Set([
  'transaction', 'saveSnapshot', 'saveCoinsDelta', 'saveAlerts', 'appendChanges', 'commitDeliveries', 'addPending', 'deliveryDone', 'deliveryRetry',
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

/**
 * A real store on a disk that can really fill: `fill()` caps the daemon's connections (the main
 * thread's and the engine's) at the pages the file has now (PRAGMA max_page_count), so
 * SQLite itself refuses every write that needs more room with SQLITE_FULL, as on a full disk;
 * `free()` lifts the cap. Nothing is thrown by the test: it only counts the calls into the store that SQLite refused (the outermost call, the one the daemon
 * sees fail), to hold the daemon's own count against.
 */
function sqliteDisk() {
  const dbs: Database.Database[] = [];
  let depth = 0;
  const d = {
    refused: 0,
    /** Any other error from the store (there must be none). */
    otherErrors: [] as string[],
    store: undefined as StateStore | undefined,
    /** Notifications pending for `receiver` in the outbox on disk (read by the main thread's connection). */
    onDisk(receiver: string): number {
      return ((dbs[0] as Database.Database).prepare("SELECT COUNT(*) AS n FROM outbox WHERE receiver = ? AND state = 'pending'").get(receiver) as { n: number }).n;
    },
    fill(): void {
      for (const db of dbs) {
        const pages = db.pragma('page_count', { simple: true }) as number;
        db.pragma(`max_page_count = ${pages}`);
      }
    },
    free(): void {
      for (const db of dbs) db.pragma('max_page_count = 4294967294');
    },
    open: (...args: Parameters<typeof StateStore.open>): StateStore => {
      const store = StateStore.open(...args);
      // The connections the daemon writes through (a private field: the cap is per connection).
      dbs.push(store['db']);
      const proxy = new Proxy(store, {
        get(target, key) {
          const v: unknown = Reflect.get(target, key, target);
          if (typeof v !== 'function') return v;
          const fn = v as (...a: unknown[]) => unknown;
          return (...a: unknown[]) => {
            depth++;
            try {
              return fn.apply(target, a);
            } catch (err) {
              if (depth === 1) {
                if ((err as { code?: unknown }).code === 'SQLITE_FULL') d.refused++;
                else d.otherErrors.push(String(err));
              }
              throw err;
            } finally {
              depth--;
            }
          };
        },
      });
      // The main thread's (opened first), to read back what is on disk.
      d.store ??= proxy;
      return proxy;
    },
  };
  return d;
}

/** The value of one series of the daemon's registry. */
async function sample(registry: Registry, name: string, labels: Record<string, string> = {}): Promise<number | undefined> {
  const values = (await registry.getSingleMetric(name)?.get())?.values ?? [];
  return values.find((v) => Object.entries(labels).every(([k, x]) => v.labels[k] === x))?.value;
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

/**
 * The scale issue 10 names: 3,000 networks closing at once while SQLite itself refuses writes,
 * with a receiver that is down meanwhile, so that what is held, and where, shows in the outbox.
 */
describe('a full disk at 3,000 networks (a real SQLITE_FULL)', () => {
  it('the disk full before the storm: holds, counts and delivers once every alert and event of a 3,000-network storm while SQLite refuses writes, writes all of its history once when space comes back, and a restart sends nothing again', async () => {
    const d = sqliteDisk();
    // Every alert of the storm in its body (no max_body_bytes), to count each one told.
    const s = await stack(RULES, { coins: 1500, deps: { openStore: d.open }, receivers: (url) => `    - name: hook\n      webhook: { url: "${url}/hook", max_body_bytes: 0 }\n` });
    // The receiver refuses every post until told otherwise (429, retry after a second).
    const down = (): void => {
      for (let i = 0; i < 1000; i++) s.hook.replies.push({ status: 429, retryAfter: '1' });
    };
    let refusedPosts = 0;
    const up = (): void => {
      refusedPosts += 1000 - s.hook.replies.length;
      s.hook.replies.length = 0;
    };
    try {
      down();
      const daemon = await s.start();
      const registry = daemon.registry;
      /**
       * The daemon's count of failed writes, and SQLite's refusals, once the count has caught up
       * (a refusal of the engine's write is counted when its report reaches the main thread).
       */
      const writeErrors = async (): Promise<{ counted: number | undefined; refused: number }> => {
        let last = { counted: undefined as number | undefined, refused: -1 };
        await waitFor(async () => {
          const refused = d.refused;
          const counted = await sample(registry, 'spotwatch_store_write_errors_total');
          last = { counted, refused };
          return d.refused === refused && (counted ?? 0) === refused;
        }, 'the count of failed writes to catch up with the refusals', 5_000).catch(() => undefined);
        return last;
      };
      const pending = (): Promise<number | undefined> => sample(registry, 'spotwatch_outbox_pending', { receiver: 'hook' });
      const store = (): StateStore => d.store as StateStore;
      const history = (): string[] => store().queryChanges({ limit: 100_000 }).map((c) => `${c.kind} ${c.coin ?? ''}/${c.network ?? ''}`).sort();

      const before = (await (await fetch(`${s.sim.url}${COINS_PATH}`)).json()) as Coin[];
      const id = (c: { coin: string }, n: { network: string }): string => `${c.coin}/${n.network}`;
      const closedBefore = before.flatMap((c) => c.networkList.filter((n) => !n.withdrawEnable).map((n) => id(c, n))).sort();
      // 3,000 networks open both ways and showing no message: each closes both ways, with a message.
      const closing = before
        .flatMap((c) => c.networkList.filter((n) => n.withdrawEnable && n.depositEnable && n.depositDesc === null && n.withdrawDesc === null).map((n) => id(c, n)))
        .sort()
        .slice(0, 3000);
      expect([closing.length, closedBefore.length]).toEqual([3000, 65]);

      // The disk is fine: the 65 networks closed from the start make one notification, in the
      // store's outbox, waiting for the receiver; nothing failed to be written.
      await waitFor(async () => (await pending()) === 1 && s.hook.replies.length < 1000, 'the first notification, turned away by the receiver');
      expect(d.onDisk('hook')).toBe(1);
      expect(await writeErrors()).toEqual({ counted: 0, refused: 0 });

      // The disk fills; 3,000 networks close in one go.
      d.fill();
      const message = 'wallet maintenance';
      s.sim.control.apply(
        closing.map((x) => {
          const [coin, network] = x.split('/') as [string, string];
          return { action: 'set_network', coin, network, set: { withdrawEnable: false, depositEnable: false, withdrawDesc: message, depositDesc: message } };
        }),
      );
      // The change rows of that poll: four per network, and one per coin and direction now closed whole.
      const after = (await (await fetch(`${s.sim.url}${COINS_PATH}`)).json()) as Coin[];
      const was = new Map(before.map((c) => [c.coin, c]));
      const closedWhole = (kind: 'deposit_all_disabled' | 'withdraw_all_disabled'): string[] => {
        const key = kind === 'deposit_all_disabled' ? 'depositAllEnable' : 'withdrawAllEnable';
        return after.filter((c) => was.get(c.coin)?.[key] === true && !c[key]).map((c) => `${kind} ${c.coin}/`);
      };
      const expectedHistory = [
        ...closing.flatMap((x) => ['deposit_disabled', 'withdraw_disabled', 'deposit_desc_set', 'withdraw_desc_set'].map((kind) => `${kind} ${x}`)),
        ...closedWhole('deposit_all_disabled'),
        ...closedWhole('withdraw_all_disabled'),
      ].sort();
      expect([closedWhole('deposit_all_disabled').length, closedWhole('withdraw_all_disabled').length, expectedHistory.length]).toEqual([1372, 1366, 12_000 + 1372 + 1366]);

      // Held in memory, behind the first: the 3,000 alerts' group, the 3,000 events', StoreFailing.
      await waitFor(async () => (await pending()) === 4, 'three notifications held in memory behind the first', 20_000);
      expect(s.bodies()).toEqual([]);
      expect(d.onDisk('hook')).toBe(1);
      // Of the storm's history, only what was written before the disk filled.
      const expectedRow = new Set(expectedHistory);
      const writtenSoFar = history();
      expect([writtenSoFar.length, writtenSoFar.filter((r) => !expectedRow.has(r))]).toEqual([0, []]);
      const full = await writeErrors();
      expect(full.refused).toBeGreaterThan(0);
      expect(full.counted).toBe(full.refused);

      // Space comes back (the receiver still down): the history of that poll is written, what
      // was held is written to the outbox, and StoreFailing resolves: five notifications on disk.
      d.free();
      const refused = d.refused;
      await waitFor(() => history().length >= expectedHistory.length, 'the history of the storm', 20_000);
      await waitFor(async () => (await pending()) === 5 && d.onDisk('hook') === 5, 'five notifications in the outbox on disk', 20_000).catch(async (e: unknown) => { throw new Error(`${String(e)} pending ${await pending()} disk ${d.onDisk('hook')}`); });
      expect(history()).toEqual(expectedHistory);
      expect(s.bodies()).toEqual([]);
      expect(await writeErrors()).toEqual({ counted: refused, refused });

      // The receiver takes posts again: the five go, once each, in order (the storm's two groups
      // and StoreFailing in the order their groups fell due).
      up();
      await waitFor(() => s.bodies().length === 5, 'the five notifications', 20_000);
      await waitFor(async () => (await pending()) === 0, 'an empty outbox');
      await s.stop();
      const posts = s.bodies();
      const shape = (p: WebhookBody): string => `${p.groupLabels.alertname} ${p.status} ${p.alerts.length}`;
      expect([shape(posts[0] as WebhookBody), posts.slice(1, 4).map(shape).sort(), shape(posts[4] as WebhookBody)]).toEqual([
        'WithdrawClosed firing 65',
        ['StoreFailing firing 1', 'WithdrawClosed firing 3065', 'WithdrawEvent firing 3000'],
        'StoreFailing resolved 1',
      ]);
      // Every alert and event of the storm told exactly once, counted by fingerprint. (Those
      // closed from the start were told first, and again with their group's next notification.)
      const told = (alertname: string): Map<string, number> => {
        const byFingerprint = new Map<string, { subject: string; n: number }>();
        for (const a of posts.flatMap((p) => p.alerts)) {
          if (a.labels.alertname !== alertname || a.status !== 'firing') continue;
          const e = byFingerprint.get(a.fingerprint) ?? { subject: `${a.labels.coin}/${a.labels.network}`, n: 0 };
          e.n++;
          byFingerprint.set(a.fingerprint, e);
        }
        return new Map([...byFingerprint.values()].map((e) => [e.subject, e.n]));
      };
      const alerts = told('WithdrawClosed');
      const events = told('WithdrawEvent');
      expect([alerts.size, events.size]).toEqual([3065, 3000]);
      expect(closing.filter((x) => alerts.get(x) !== 1 || events.get(x) !== 1)).toEqual([]);
      expect(closedBefore.filter((x) => alerts.get(x) !== 2)).toEqual([]);
      expect(posts.flatMap((p) => p.alerts).filter((a) => a.status === 'resolved').map((a) => a.labels.alertname)).toEqual(['StoreFailing']);

      const metrics = await registry.metrics();
      expect(value(metrics, 'spotwatch_store_write_errors_total')).toBe(refused);
      expect(value(metrics, 'spotwatch_history_rows_dropped_total')).toBe(0);
      expect(value(metrics, 'spotwatch_notifications_dropped_total{receiver="hook"}')).toBe(0);
      expect(value(metrics, 'spotwatch_notifications_total{receiver="hook",outcome="success"}')).toBe(5);
      expect(value(metrics, 'spotwatch_notifications_total{receiver="hook",outcome="retry"}')).toBe(refusedPosts);
      expect(value(metrics, 'spotwatch_notifications_total{receiver="hook",outcome="failed"}')).toBe(0);
      expect(value(metrics, 'spotwatch_changes_total{exchange="main",kind="withdraw_disabled"}')).toBe(3000);
      expect(d.otherErrors).toEqual([]);

      // A restart sends nothing again: eight polls and their group flushes go by in silence.
      const again = await s.start();
      const polls = async (): Promise<number> =>
        (await again.registry.getSingleMetric('spotwatch_poll_duration_seconds')?.get())?.values.find((v) => (v as { metricName?: string }).metricName === 'spotwatch_poll_duration_seconds_count' && v.labels.endpoint === 'coins')?.value ?? 0;
      await waitFor(async () => (await polls()) >= 8, 'eight polls after the restart');
      expect(s.bodies()).toHaveLength(5);
      // One network opens again: the only news, and the only notification.
      const [coin, network] = (closing[0] as string).split('/') as [string, string];
      s.sim.control.apply({ action: 'set_network', coin, network, set: { withdrawEnable: true } });
      await waitFor(() => s.bodies().length > 5, 'the next notification after the restart');
      expect(await sample(again.registry, 'spotwatch_store_write_errors_total')).toBe(0);
      await s.stop();
      expect(s.bodies().slice(5).map((p) => [p.groupLabels.alertname, p.alerts.filter((a) => a.status === 'resolved').map((a) => `${a.labels.coin}/${a.labels.network}`)])).toEqual([['WithdrawClosed', [closing[0]]]]);
      expect(d.refused).toBe(refused);
      expect(d.otherErrors).toEqual([]);
    } finally {
      await s.close();
    }
  });
});
