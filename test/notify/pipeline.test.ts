import type { Alert } from '../../src/alerts/alert';
import { compileInhibitRules, DEFAULT_INHIBIT_RULES } from '../../src/alerts/inhibit';
import { Pipeline } from '../../src/notify/pipeline/pipeline';
import { compileRoutes, type RouteInput } from '../../src/alerts/route';
import { Muter } from '../../src/alerts/silence';
import { silentLogger } from '../../src/lib/logger';
import type { StateStore } from '../../src/store/store';
import { openTempStore, type TempStore } from '../support/temp-store';

const S = 1000;

function alert(coin: string, over: Partial<Alert> = {}, labels: Record<string, string> = {}): Alert {
  return {
    fingerprint: `fp-${coin}-${labels.alertname ?? 'W'}`, ruleId: 'r', entity: coin,
    labels: { alertname: 'WithdrawDisabled', exchange: 'main', severity: 'critical', coin, network: 'N', kind: 'withdraw_disabled', ...labels },
    annotations: { summary: `${coin} closed` }, status: 'firing', activeAt: 0, startsAt: 0, endsAt: null, lastActiveAt: 0, lastNotifiedAt: 0, value: 1, event: false,
    ...over,
  };
}

let temp: TempStore;
let store: StateStore;
beforeEach(() => {
  temp = openTempStore('spotwatch-pipeline-');
  store = temp.store;
});
afterEach(() => temp.close());

function pipeline(opts: { routes?: RouteInput[]; receivers?: Record<string, boolean>; muter?: Muter; active?: Alert[]; direct?: Map<string, number> } = {}): Pipeline {
  const receivers = opts.receivers ?? { hook: true };
  return new Pipeline({
    routes: compileRoutes(opts.routes ?? [], { receivers: Object.keys(receivers), group_by: ['exchange', 'alertname'], group_wait: 10 * S, group_interval: 60 * S, repeat_interval: 3_600 * S }, opts.direct),
    receivers: new Map(Object.entries(receivers).map(([k, v]) => [k, { sendResolved: v }])),
    inhibitRules: compileInhibitRules(DEFAULT_INHIBIT_RULES),
    muter: opts.muter ?? new Muter(),
    externalURL: 'http://sw',
    port: { logEntry: (r, k) => store.logEntry(r, k), commit: (items, done) => store.commitDeliveries(items, 0, done) },
    activeAlerts: () => opts.active ?? [],
    logger: silentLogger(),
  });
}

/** The outbox, as "receiver status [fingerprints]" lines, oldest first. */
function outbox(receiver = 'hook'): string[] {
  return store.dueDeliveries(receiver, Number.MAX_SAFE_INTEGER, 1000).map((d) => `${d.delivery.notification.status} [${d.delivery.notification.alerts.map((a) => `${a.fingerprint}:${a.status}`).join(' ')}]`);
}

describe('Pipeline', () => {
  it('waits group_wait, then sends the whole group in one notification', () => {
    const p = pipeline();
    p.insert([alert('USDT')], 0);
    p.insert([alert('USDC')], 3 * S);
    expect(p.tick(9 * S)).toBe(0);
    expect(p.tick(10 * S)).toBe(1);
    expect(outbox()).toEqual(['firing [fp-USDT-W:firing fp-USDC-W:firing]']);
  });

  it('adds to a group at the next group_interval, carrying every alert in the group', () => {
    const p = pipeline();
    p.insert([alert('USDT')], 0);
    p.tick(10 * S);
    p.insert([alert('BTC')], 20 * S);
    expect(p.tick(69 * S)).toBe(0);
    expect(p.tick(70 * S)).toBe(1);
    expect(outbox()[1]).toBe('firing [fp-USDT-W:firing fp-BTC-W:firing]');
  });

  it('does not re-judge a group unchanged since its last flush; does when it changes, when an inhibition starts or ends, and when a repeat is due', () => {
    const active: Alert[] = [];
    let judged = 0;
    const p = new Pipeline({
      routes: compileRoutes([], { receivers: ['hook'], group_by: ['exchange', 'alertname'], group_wait: 10 * S, group_interval: 60 * S, repeat_interval: 3_600 * S }),
      receivers: new Map([['hook', { sendResolved: true }]]),
      inhibitRules: compileInhibitRules(DEFAULT_INHIBIT_RULES),
      muter: new Muter(),
      externalURL: 'http://sw',
      // Judging a group reads its log entry: the count of reads is the count of judgements.
      port: { logEntry: (r, k) => (judged++, store.logEntry(r, k)), commit: (items, done) => store.commitDeliveries(items, 0, done) },
      activeAlerts: () => active,
      logger: silentLogger(),
    });
    const down = alert('', { fingerprint: 'down' }, { alertname: 'ExchangeDown', endpoint: 'coins' });
    const steps: [number, () => void][] = [
      [10, () => p.insert([alert('USDT'), alert('USDC')], 0)],
      [70, () => undefined],
      [130, () => undefined],
      [190, () => p.insert([alert('BTC')], 140 * S)],
      [250, () => active.push(down)],
      [310, () => undefined],
      [370, () => active.splice(0)],
      [3_970, () => undefined],
    ];
    const seen = steps.map(([at, before]) => {
      before();
      const sent = p.tick(at * S);
      return `${at}s: sent ${sent}, judged ${judged}`;
    });
    expect(seen).toEqual([
      '10s: sent 1, judged 1',
      '70s: sent 0, judged 1',
      '130s: sent 0, judged 1',
      '190s: sent 1, judged 2',
      // Inhibited: nothing to tell (the log entry is dropped).
      '250s: sent 0, judged 3',
      '310s: sent 0, judged 3',
      // The inhibition ends: every alert is news again.
      '370s: sent 1, judged 4',
      // repeat_interval after the last send.
      '3970s: sent 1, judged 5',
    ]);
  });

  it('tells nothing new at a group_interval with no change, and repeats after repeat_interval', () => {
    const p = pipeline();
    p.insert([alert('USDT')], 0);
    p.tick(10 * S);
    expect(p.tick(70 * S)).toBe(0);
    expect(p.tick(3_610 * S)).toBe(1);
    expect(outbox()).toEqual(['firing [fp-USDT-W:firing]', 'firing [fp-USDT-W:firing]']);
  });

  it('sends a resolution once, then forgets the group', () => {
    const p = pipeline();
    p.insert([alert('USDT'), alert('USDC')], 0);
    p.tick(10 * S);
    p.insert([alert('USDT', { status: 'resolved', endsAt: 30 * S })], 30 * S);
    expect(p.tick(70 * S)).toBe(1);
    p.insert([alert('USDC', { status: 'resolved', endsAt: 80 * S })], 80 * S);
    expect(p.tick(130 * S)).toBe(1);
    expect(p.tick(190 * S)).toBe(0);
    expect(outbox()).toEqual(['firing [fp-USDT-W:firing fp-USDC-W:firing]', 'firing [fp-USDT-W:resolved fp-USDC-W:firing]', 'resolved [fp-USDC-W:resolved]']);
  });

  it('does not send resolutions to a receiver with send_resolved: false', () => {
    const p = pipeline({ receivers: { hook: true, pager: false } });
    p.insert([alert('USDT')], 0);
    p.tick(10 * S);
    p.insert([alert('USDT', { status: 'resolved', endsAt: 20 * S })], 20 * S);
    p.tick(70 * S);
    expect(outbox('hook')).toEqual(['firing [fp-USDT-W:firing]', 'resolved [fp-USDT-W:resolved]']);
    expect(outbox('pager')).toEqual(['firing [fp-USDT-W:firing]']);
    // Firing again is news for both: at the group's next group_interval (it is kept that long
    // after it emptied at 70 s), not after a new group_wait.
    p.insert([alert('USDT', { status: 'firing' })], 100 * S);
    p.tick(110 * S);
    expect(outbox('pager')).toHaveLength(1);
    p.tick(130 * S);
    expect(outbox('pager')).toHaveLength(2);
  });

  it('drops an alert that fired and resolved within group_wait', () => {
    const p = pipeline();
    p.insert([alert('USDT')], 0);
    p.insert([alert('USDT', { status: 'resolved', endsAt: 5 * S })], 5 * S);
    expect(p.tick(10 * S)).toBe(0);
  });

  it('routes by matchers, with continue', () => {
    const p = pipeline({
      receivers: { pager: true, chat: true, hook: true },
      routes: [
        { match: { severity: 'critical' }, receivers: ['pager'], continue: true },
        { match: { coin: 'USD*' }, receivers: ['chat'], continue: false, group_wait: 0 },
        { match: {}, receivers: ['hook'], continue: false },
      ],
    });
    p.insert([alert('USDT'), alert('BTC', {}, { severity: 'info' })], 0);
    p.tick(0);
    p.tick(10 * S);
    expect(outbox('pager')).toEqual(['firing [fp-USDT-W:firing]']);
    expect(outbox('chat')).toEqual(['firing [fp-USDT-W:firing]']);
    expect(outbox('hook')).toEqual(['firing [fp-BTC-W:firing]']);
  });

  it('turns a storm of 3,000 flips into one notification per group', () => {
    const p = pipeline();
    p.insert(Array.from({ length: 3000 }, (_, i) => alert(`C${i}`)), 0);
    p.insert([alert('X', {}, { alertname: 'DepositDisabled' })], 0);
    expect(p.tick(10 * S)).toBe(2);
    expect(store.dueDeliveries('hook', Number.MAX_SAFE_INTEGER, 10).map((d) => d.delivery.notification.alerts.length).sort()).toEqual([1, 3000]);
  });

  it('inhibits network alerts while their exchange is down, and a delisted coin\'s networks', () => {
    const down = alert('', { fingerprint: 'down' }, { alertname: 'ExchangeDown', endpoint: 'coins' });
    delete (down.labels as Record<string, string>).coin;
    delete (down.labels as Record<string, string>).network;
    const p = pipeline({ active: [down] });
    p.insert([alert('USDT')], 0);
    expect(p.tick(10 * S)).toBe(0);

    const q = pipeline();
    const delisted = alert('LUNA', { fingerprint: 'ev', event: true, startsAt: 0 }, { alertname: 'CoinListing', kind: 'coin_delisted' });
    delete (delisted.labels as Record<string, string>).network;
    q.insert([delisted, alert('LUNA', { status: 'firing' })], 0);
    q.tick(10 * S);
    expect(outbox()).toEqual(['firing [ev:firing]']);
  });

  it('mutes what a silence or a maintenance window matches', () => {
    const muter = new Muter();
    muter.setSilences([{ id: 's1', matchers: [{ label: 'coin', pattern: 'USDT' }], startsAt: 0, endsAt: 100 * S, comment: 'known', createdBy: 'ops' }]);
    muter.setWindows([{ name: 'nightly', matchers: [{ label: 'coin', pattern: 'BTC' }], weekdays: [], startMinute: 0, endMinute: 60, timeZone: 'UTC' }]);
    const p = pipeline({ muter });
    p.insert([alert('USDT'), alert('BTC'), alert('ETH')], 0);
    p.tick(10 * S);
    expect(outbox()).toEqual(['firing [fp-ETH-W:firing]']);
  });

  it('pushes to Alertmanager at once, one alert per push, again every resend interval, and the resolution', () => {
    const p = pipeline({ receivers: { hook: true, am: true }, direct: new Map([['am', 60 * S]]) });
    p.insert([alert('USDT'), alert('USDC')], 0);
    expect(p.tick(0)).toBe(2);
    expect(outbox('am')).toEqual(['firing [fp-USDT-W:firing]', 'firing [fp-USDC-W:firing]']);
    expect(outbox('hook')).toEqual([]);
    p.tick(10 * S);
    expect(outbox('hook')).toEqual(['firing [fp-USDT-W:firing fp-USDC-W:firing]']);
    expect(p.tick(59 * S)).toBe(0);
    expect(p.tick(60 * S)).toBe(2);
    p.insert([alert('USDT', { status: 'resolved', endsAt: 61 * S })], 61 * S);
    p.tick(70 * S);
    expect(outbox('am').slice(4)).toEqual(['resolved [fp-USDT-W:resolved]']);
  });

  it('after a restart (same store, alerts re-inserted) tells nothing twice', () => {
    const p = pipeline();
    p.insert([alert('USDT')], 0);
    p.tick(10 * S);
    const again = pipeline();
    again.insert([alert('USDT')], 20 * S);
    expect(again.tick(30 * S)).toBe(0);
    again.insert([alert('USDT', { status: 'resolved', endsAt: 40 * S })], 40 * S);
    expect(again.tick(90 * S)).toBe(1);
  });
});

describe('Pipeline pending list', () => {
  it('keeps an alert pending until every group it joined is committed, then drops it in the same commit', () => {
    const p = pipeline({ receivers: { hook: true, am: true }, direct: new Map([['am', 60 * S]]) });
    const a = alert('USDT');
    const ids = store.addPending([a]);
    p.insert([a], 0, ids);
    p.tick(0); // the Alertmanager part has no wait; the grouped part waits 10 s
    expect(store.loadPending().map((x) => x.id)).toEqual(ids);
    p.tick(10 * S);
    expect(store.loadPending()).toEqual([]);
  });

  it('re-inserted after a crash, pending alerts are told (once) to a new pipeline on the same store', () => {
    const first = pipeline();
    const ev = alert('X', { event: true, fingerprint: 'ev1', startsAt: 0 }, { alertname: 'Listing', kind: 'coin_listed' });
    first.insert([ev], 0, store.addPending([ev]));
    // crash: nothing flushed
    const second = pipeline();
    const pending = store.loadPending();
    expect(pending.map((x) => x.alert.fingerprint)).toEqual(['ev1']);
    second.insert(pending.map((x) => x.alert), 20 * S, pending.map((x) => x.id));
    second.tick(30 * S);
    expect(outbox()).toEqual(['firing [ev1:firing]']);
    expect(store.loadPending()).toEqual([]);
  });
});
