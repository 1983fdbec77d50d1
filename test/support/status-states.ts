import type { Alert } from '../../src/alerts/alert';
import { createApp } from '../../src/http/app';
import { listen, type Listening } from '../../src/http/server';
import type { ExchangeInput } from '../../src/http/state-view';
import { Views } from '../../src/http/views';
import type { NoticeLists } from '../../src/notices/book-json';
import type { Announcement, Maintenance } from '../../src/notices/model';
import { parseRules } from '../../src/rules/parse';
import type { Change } from '../../src/snapshot/changes';
import type { CoinRecord, Snapshot } from '../../src/snapshot/model';
import { coinRecord } from './records';
import { openTempStore, type TempStore } from './temp-store';

/**
 * The status page in the states a person meets it in, each served by the real app over a real
 * store on loopback: `empty` (nothing configured yet), `calm` (everything open, a little
 * history), `notices` (calm with maintenance and announcements), `storm` (hundreds of networks
 * closed with hostile messages, more alerts firing than the page shows, the banner). The
 * accessibility (axe) and validation (Nu Html Checker) suites read them, and the filter test
 * counts the storm's rows.
 */
export type StatusState = 'empty' | 'calm' | 'notices' | 'storm';

export const H = 3_600_000;
/** Now: 10 days after watching began (the bars have history and days not watched). */
export const T0 = Date.UTC(2026, 10, 1);
export const NOW = T0 + 10 * 24 * H + 5 * H;

/** Text an exchange might send to hurt a terminal or a page: markup, an ANSI colour, a bell, a NUL, a right-to-left override. */
export const HOSTILE_DESC = 'wallet <b>upgrade</b> & "soon" \u001b[31mRED\u001b[0m\u0007 nul\u0000 \u202Edesrever\u202C end';

/** Storm: coins C000..C199 with two networks each, and USDT and USDC on three. */
export const STORM_COINS = 200;
const STORM_NETWORKS = ['ETH', 'TRX'] as const;
const STABLE_NETWORKS = ['ETH', 'TRX', 'BSC'] as const;

const RULES = `rules:
  - alert: WithdrawDisabled
    state: withdraw_disabled
    match: { coin: "USDT|USDC" }
  - alert: AnyClosed
    state: withdraw_disabled
  - alert: FastMove
    ticker: move_percent
    window: 5m
    above: 3
    match: { symbol: BTCUSDT }
`;

function rules() {
  const r = parseRules(RULES, 'rules.yaml', {});
  if (!r.ok) throw new Error(r.problems.join('\n'));
  return r.rules;
}

const coinName = (i: number): string => `C${String(i).padStart(3, '0')}`;

function calmCoins(): CoinRecord[] {
  const list = [coinRecord('USDT', STABLE_NETWORKS.map((network) => ({ network }))), coinRecord('USDC', STABLE_NETWORKS.map((network) => ({ network }))), coinRecord('BTC', [{ network: 'BTC' }])];
  for (let i = 0; i < 20; i++) list.push(coinRecord(coinName(i), STORM_NETWORKS.map((network) => ({ network }))));
  return list;
}

function stormCoins(): CoinRecord[] {
  const closed = (i: number) => ({ depositEnable: i % 3 !== 0, withdrawEnable: false, withdrawDesc: `${HOSTILE_DESC} ${i}` });
  const list = [
    coinRecord('USDT', STABLE_NETWORKS.map((network, k) => ({ network, ...closed(k) }))),
    coinRecord('USDC', STABLE_NETWORKS.map((network, k) => ({ network, ...closed(k) }))),
    coinRecord('BTC', [{ network: 'BTC', ...closed(1) }]),
  ];
  for (let i = 0; i < STORM_COINS; i++) list.push(coinRecord(coinName(i), STORM_NETWORKS.map((network, k) => ({ network, ...closed(i + k) }))));
  return list;
}

function snapshotOf(coins: CoinRecord[]): Snapshot {
  const tickers = new Map([
    ['BTCUSDT', { symbol: 'BTCUSDT', lastPrice: '103000', openPrice: '100000' } as never],
    ['ETHUSDT', { symbol: 'ETHUSDT', lastPrice: '3000', openPrice: '3100' } as never],
  ]);
  return { exchange: 'main', coinsAt: NOW - 60_000, tickersAt: NOW - 60_000, coins: new Map(coins.map((c) => [c.coin, c])), tickers };
}

const change = (kind: Change['kind'], coin: string, network: string, at: number, after: Change['after'], before: Change['before'] = null): Change => ({ kind, exchange: 'main', coin, network, before, after, at });

/** A day of history: USDT TRX withdrawals closed for two hours yesterday (with a hostile message), a fee change. */
function calmHistory(t: TempStore, first: Snapshot): void {
  t.store.saveSnapshot({ ...first, coinsAt: T0 }, 'coins');
  const y = NOW - 24 * H;
  t.store.appendChanges([change('withdraw_disabled', 'USDT', 'TRX', y, false, true), change('withdraw_desc_set', 'USDT', 'TRX', y, HOSTILE_DESC)]);
  t.store.appendChanges([change('withdraw_enabled', 'USDT', 'TRX', y + 2 * H, true, false)]);
  t.store.appendChanges([change('withdraw_fee_changed', 'BTC', 'BTC', y + 3 * H, '0.0005', '0.0004')]);
}

/** Every closed network of the storm closing within the last hour, one a few seconds after the other. */
function stormHistory(t: TempStore, now: Snapshot): void {
  let at = NOW - H;
  for (const c of now.coins.values()) {
    for (const n of c.networkList) {
      at += 5_000;
      const batch: Change[] = [change('withdraw_disabled', c.coin, n.network, at, false, true), change('withdraw_desc_set', c.coin, n.network, at, n.withdrawDesc)];
      if (!n.depositEnable) batch.push(change('deposit_disabled', c.coin, n.network, at, false, true));
      t.store.appendChanges(batch);
    }
  }
}

function alert(fingerprint: string, labels: Record<string, string>, summary: string, activeAt: number): Alert {
  return {
    fingerprint, ruleId: `${labels.alertname}:1`, entity: fingerprint, labels, annotations: { summary },
    status: 'firing', activeAt, startsAt: activeAt, endsAt: null, lastActiveAt: activeAt, lastNotifiedAt: null, value: 1, event: false,
  };
}

/** An alert per closed withdrawal (of the rule over every network), USDT and USDC's twice (their own rule too), and the exchange's coin poll down. */
function stormAlerts(now: Snapshot): Alert[] {
  const out: Alert[] = [alert('down', { alertname: 'ExchangeDown', exchange: 'main', severity: 'critical', endpoint: 'coins' }, 'main: coins endpoint down', NOW - 30 * 60_000)];
  let i = 0;
  for (const c of now.coins.values()) {
    for (const n of c.networkList) {
      i += 1;
      const labels = { exchange: 'main', coin: c.coin, network: n.network };
      out.push(alert(`any${i}`, { alertname: 'AnyClosed', severity: 'warning', ...labels }, `${c.coin} withdrawals closed on ${n.network}: ${n.withdrawDesc ?? ''}`, NOW - H + i * 5_000));
      if (c.coin === 'USDT' || c.coin === 'USDC') out.push(alert(`wd${i}`, { alertname: 'WithdrawDisabled', severity: 'critical', ...labels }, `${c.coin} withdrawals closed on ${n.network}`, NOW - H + i * 5_000));
    }
  }
  return out;
}

function win(over: Partial<Maintenance>): Maintenance {
  return { exchange: 'main', id: 'w', title: 'Wallet maintenance', state: 'scheduled', begins: NOW + H, ends: NOW + 3 * H, origin: 'planned', scope: 'funding', coins: [], symbols: [], url: null, source: 'main-status', ...over };
}

function ann(over: Partial<Announcement>): Announcement {
  return { exchange: 'main', id: 'a', kind: 'delisting', title: 'Will delist', url: null, published: NOW - 2 * H, coins: ['USDT'], symbols: [], chains: [], source: 'main-announcements', ...over };
}

/** Two windows (one under way, one coming, with hostile text) and an announcement naming USDT. */
export function noticeLists(): NoticeLists[] {
  return [{
    status: null,
    windows: [
      win({ id: 'o', title: 'TRC20 wallet maintenance', state: 'ongoing', begins: NOW - H, ends: NOW + H, url: 'https://status.test/o' }),
      win({ id: 's', title: `Upgrade <script>x</script> ${HOSTILE_DESC}`, ends: null, scope: 'unknown' }),
    ],
    announcements: [ann({ id: '1', title: 'Will Delist Tether (USDT) & <ETH>', url: 'https://ann.test/1' })],
  }];
}

export interface ServedState {
  state: StatusState;
  url: string;
  close(): Promise<void>;
}

/** The app of one state on loopback (port 0). */
export async function serveState(state: StatusState): Promise<ServedState> {
  const t = openTempStore('spotwatch-status-state-');
  let exchanges: ExchangeInput[] = [];
  let alerts: Alert[] = [];
  let notices: NoticeLists[] = [];
  const polled = { at: new Date(NOW - 60_000).toISOString(), ok: true };
  if (state !== 'empty') {
    const calm = snapshotOf(calmCoins());
    calmHistory(t, calm);
    const now = state === 'storm' ? snapshotOf(stormCoins()) : calm;
    if (state === 'storm') stormHistory(t, now);
    t.store.saveSnapshot(now, 'coins');
    exchanges = [{ name: 'main', up: state !== 'storm', polls: { coins: state === 'storm' ? { at: polled.at, ok: false, kind: 'timeout' } : polled, tickers: polled }, snapshot: now }];
    alerts = state === 'storm' ? stormAlerts(now) : [];
    notices = state === 'calm' ? [] : noticeLists();
  }
  const ruleList = state === 'empty' ? [] : rules();
  const views = new Views({ now: () => NOW, exchanges: () => exchanges, alerts: () => alerts, store: () => (state === 'empty' ? undefined : t.store), rules: () => ruleList, notices: () => notices });
  const http: Listening = await serveViews(views, () => notices, NOW);
  return {
    state,
    url: http.url,
    close: async () => {
      await http.close();
      t.close();
    },
  };
}

/** The HTTP app serving `views`' status page (and `notices`' lists) on loopback, the rest of its sources empty. */
export function serveViews(views: Views, notices: (() => NoticeLists[]) | undefined, now: number): Promise<Listening> {
  return listen(
    createApp({
      ready: () => true,
      metrics: { contentType: 'text/plain', render: async () => '', renderGzip: async () => [] },
      api: { alerts: () => [], changes: () => [], state: () => ({ data: { exchanges: [], routes: [] }, next: null }), deadLetters: () => [], silences: { list: () => [], save: () => undefined }, now: () => now },
      reload: async () => ({ ok: true }),
      statusView: (q) => views.statusView(q),
      ...(notices !== undefined && { notices }),
    }),
    '127.0.0.1',
    0,
  );
}
