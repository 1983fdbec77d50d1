import { Agent } from 'undici';
import { Digests, digestContent } from '../../src/runtime/daily-digest';
import { parseConfig, type Config } from '../../src/config';
import { manualClock, systemClock } from '../../src/lib/clock';
import { silentLogger } from '../../src/lib/logger';
import { Notifications } from '../../src/notify/orchestrator';
import { digestDelivery, digestText, localDate, nextDigestAt } from '../../src/notify/digest';
import type { Delivery } from '../../src/notify/notifier';
import type { NoticeLists } from '../../src/notices/book-json';
import type { Maintenance } from '../../src/notices/model';
import type { Outage } from '../../src/outages/model';
import { tickerRecord } from '../support/records';
import { openTempStore } from '../support/temp-store';
import { waitFor } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';

const H = 3_600_000;
const at = (iso: string): number => Date.parse(iso);

function config(extra: string, url = 'http://127.0.0.1:9/hook'): Config {
  const text = `exchanges:\n  - name: main\nnotify:\n  retry: { base_delay: 10ms, max_delay: 20ms }\n  receivers:\n    - name: desk\n      webhook: { url: "${url}" }\n${extra}`;
  const r = parseConfig(text, 'c.yaml', {}, '/');
  if (!r.ok) throw new Error(r.problems.join('\n'));
  return r.config;
}

describe('the digest\'s time: a local time in a time zone, DST-correct', () => {
  it('08:00 in London is 08:00Z in winter and 07:00Z in summer, across both changes', () => {
    const tz = 'Europe/London';
    expect(new Date(nextDigestAt(at('2026-03-28T09:00:00Z'), '08:00', tz)).toISOString()).toBe('2026-03-29T07:00:00.000Z');
    expect(new Date(nextDigestAt(at('2026-03-28T07:59:00Z'), '08:00', tz)).toISOString()).toBe('2026-03-28T08:00:00.000Z');
    expect(new Date(nextDigestAt(at('2026-10-24T08:00:00Z'), '08:00', tz)).toISOString()).toBe('2026-10-25T08:00:00.000Z');
    expect(new Date(nextDigestAt(at('2026-10-24T06:00:00Z'), '08:00', tz)).toISOString()).toBe('2026-10-24T07:00:00.000Z');
  });

  it('a time the clocks skip comes just after the gap; one they pass twice, once; the date is the local one', () => {
    expect(new Date(nextDigestAt(at('2026-03-29T00:00:00Z'), '01:30', 'Europe/London')).toISOString()).toBe('2026-03-29T01:30:00.000Z');
    expect(new Date(nextDigestAt(at('2026-10-25T00:00:00Z'), '01:30', 'Europe/London')).toISOString()).toBe('2026-10-25T01:30:00.000Z');
    expect(new Date(nextDigestAt(at('2026-01-01T00:00:00Z'), '08:00', 'Asia/Tokyo')).toISOString()).toBe('2026-01-01T23:00:00.000Z');
    expect(localDate(at('2026-01-01T23:00:00Z'), 'Asia/Tokyo')).toBe('2026-01-02');
  });

  it('the config takes notify.digest and checks its time, zone and receivers', () => {
    expect(config('  digest: { at: "08:00", timezone: Europe/London, receivers: [desk] }\n').notify.digest).toEqual({ at: '08:00', timezone: 'Europe/London', receivers: ['desk'], send_empty: false });
    const bad = parseConfig('exchanges:\n  - name: main\nnotify:\n  receivers:\n    - name: desk\n      webhook: { url: "http://h/" }\n  digest: { at: "25:00", timezone: Mars/Base, receivers: [nobody] }\n', 'c.yaml', {}, '/');
    expect(bad.ok ? [] : bad.problems.map((p) => p.replace(/^c\.yaml:\d+:\d+: /, ''))).toEqual([
      'notify.digest.at: a local time, HH:MM (24 h)',
      'notify.digest.timezone: an IANA time zone, such as Europe/London or UTC',
      'notify.digest.receivers[0]: unknown receiver "nobody" (known: desk)',
    ]);
  });
});

const window = (w: Partial<Maintenance>): Maintenance => ({
  exchange: 'main', id: 'w', title: 'w', state: 'scheduled', begins: 0, ends: null, origin: 'planned', scope: 'exchange', coins: [], symbols: [], url: null, source: 'statuspage', ...w,
});
const lists = (...windows: Maintenance[]): NoticeLists => ({ status: null, windows, announcements: [] });
/** Two exchanges' windows around 2026-03-28T08:00Z: ongoing (told by two sources), scheduled within 24 h, beyond, ended. */
const NOTICES: NoticeLists[] = [
  lists(
    window({ id: 'far', title: 'Database upgrade', begins: at('2026-03-29T09:00:00Z'), ends: at('2026-03-29T10:00:00Z') }),
    window({ id: 'soon', title: 'System\nupgrade', begins: at('2026-03-28T12:00:00Z') }),
    window({ id: 'now', title: 'Tether (USDT) wallet <maintenance>', state: 'ongoing', begins: at('2026-03-28T06:00:00Z'), ends: at('2026-03-28T09:00:00Z'), source: 'statuspage' }),
    window({ id: 'now', title: 'Tether (USDT) wallet <maintenance>', state: 'ongoing', begins: at('2026-03-28T06:00:00Z'), ends: at('2026-03-28T09:00:00Z'), source: 'bybit-status', scope: 'unknown' }),
    window({ id: 'done', title: 'Earlier work', state: 'completed', begins: at('2026-03-28T01:00:00Z'), ends: at('2026-03-28T02:00:00Z') }),
    window({ id: 'off', title: 'Called off', state: 'canceled', begins: at('2026-03-28T10:00:00Z') }),
  ),
  lists(window({ exchange: 'kraken', id: 'k1', title: 'Funding gateway', begins: at('2026-03-29T07:59:00Z'), ends: at('2026-03-29T08:30:00Z') })),
];

const outage = (o: Partial<Outage>): Outage => ({ id: 1, exchange: 'main', coin: 'USDT', network: 'TRX', direction: 'withdraw', from: null, began: 0, to: null, messages: [], ...o });

describe('the daily digest, sent by a manual clock', () => {
  it('goes once a day at 08:00 London time across the spring change, saying what is closed, the day\'s outages and the movers', async () => {
    const clock = manualClock(at('2026-03-27T12:00:00Z'));
    const sent: { at: string; deliveries: Delivery[] }[] = [];
    const outages = [
      outage({ id: 2, coin: 'BTC', network: 'BTC', direction: 'deposit', from: at('2026-03-27T10:00:00Z'), to: at('2026-03-27T12:30:00Z'), messages: ['node upgrade'] }),
      outage({ id: 1, from: at('2026-03-20T00:00:00Z'), messages: ['wallet <maintenance>'] }),
    ];
    const cfg = config('  digest: { at: "08:00", timezone: Europe/London, receivers: [desk] }\n');
    const digests = new Digests({
      clock,
      logger: silentLogger(),
      config: () => cfg,
      outages: (q) => outages.filter((o) => q.since === undefined || o.to === null || o.to >= q.since),
      snapshots: () => [{ name: 'main', symbols: [], snapshot: { exchange: 'main', coinsAt: null, tickersAt: 1, coins: new Map(), tickers: new Map(['BTCUSDT', 'ETHUSDT', 'XUSDT'].map((s, i) => [s, tickerRecord(s, { priceChangePercent: ['2.5', '-7.25', '0.1'][i]! })])) } }],
      notices: () => NOTICES,
      send: (deliveries) => sent.push({ at: new Date(clock.now()).toISOString(), deliveries }),
      externalURL: () => 'http://sw',
    });
    for (let t = clock.now(); t <= at('2026-03-30T12:00:00Z'); t += 15 * 60_000) {
      clock.set(t);
      await digests.check();
    }
    expect(sent.map((s) => s.at)).toEqual(['2026-03-28T08:00:00.000Z', '2026-03-29T07:00:00.000Z', '2026-03-30T07:00:00.000Z']);
    const n = sent[0]!.deliveries[0]!.notification;
    expect([n.receiver, n.groupKey, n.commonLabels, n.alerts.length, sent[0]!.deliveries[0]!.idempotencyKey]).toEqual(['desk', '{}:{digest="2026-03-28"}', { alertname: 'DailyDigest', severity: 'info' }, 1, 'digest:desk:2026-03-28']);
    expect(n.commonAnnotations.summary).toBe('spotwatch daily digest 2026-03-28 (Europe/London): 1 closed, 1 outages in 24 h');
    expect(n.commonAnnotations.description).toBe([
      'Closed now: 1',
      '- main USDT on TRX: withdrawals closed since 2026-03-20T00:00:00Z (8d 8h): wallet <maintenance>',
      'Outages in the last 24 h: 1',
      '- main BTC on BTC: deposits 2026-03-27T10:00:00Z to 2026-03-27T12:30:00Z (2h 30m): node upgrade',
      'Maintenance ongoing or beginning in the next 24 h: 3',
      '- main: Tether (USDT) wallet <maintenance>: ongoing since 2026-03-28T06:00:00Z, ends 2026-03-28T09:00:00Z',
      '- main: System upgrade: begins 2026-03-28T12:00:00Z (in 4h), ends unknown',
      '- kraken: Funding gateway: begins 2026-03-29T07:59:00Z (in 23h 59m), ends 2026-03-29T08:30:00Z',
      'Largest 24h movers:',
      '- main ETHUSDT: -7.25%',
      '- main BTCUSDT: +2.5%',
      '- main XUSDT: +0.1%',
    ].join('\n'));
  });

  it('is skipped when there is nothing to say, unless send_empty', () => {
    const content = { closed: [], outages: [], maintenance: [], movers: [] };
    expect(digestText(content, '2026-01-01', 'UTC', 0, false)).toBeUndefined();
    expect(digestText(content, '2026-01-01', 'UTC', 0, true)?.description).toBe('Closed now: 0\nOutages in the last 24 h: 0\nMaintenance ongoing or beginning in the next 24 h: 0\nLargest 24h movers: none');
    // A window alone is something to say.
    const windowOnly = { ...content, maintenance: [{ exchange: 'main', title: 'Upgrade', state: 'scheduled' as const, begins: 2 * H, ends: null }] };
    expect(digestText(windowOnly, '2026-01-01', 'UTC', 0, false)?.description).toBe('Closed now: 0\nOutages in the last 24 h: 0\nMaintenance ongoing or beginning in the next 24 h: 1\n- main: Upgrade: begins 1970-01-01T02:00:00Z (in 2h), ends unknown\nLargest 24h movers: none');
  });

  it('lists only the watched symbols among the movers, and the closures of the store', () => {
    const t = openTempStore();
    try {
      t.store.appendChanges([{ kind: 'withdraw_disabled', exchange: 'main', coin: 'USDT', network: 'TRX', before: true, after: false, at: 5 * H }]);
      const c = digestContent({
        outages: (q) => t.store.queryOutages(q),
        snapshots: () => [{ name: 'main', symbols: ['XUSDT'], snapshot: { exchange: 'main', coinsAt: null, tickersAt: 1, coins: new Map(), tickers: new Map([['BTCUSDT', tickerRecord('BTCUSDT', { priceChangePercent: '9' })], ['XUSDT', tickerRecord('XUSDT', { priceChangePercent: '1' })]]) } }],
        notices: () => [lists(window({ title: 'Overdue', begins: 9 * H }), window({ title: 'Tomorrow', begins: 34 * H }), window({ title: 'Later', begins: 35 * H }))],
      }, 10 * H);
      expect(c).toEqual({
        closed: [{ exchange: 'main', coin: 'USDT', network: 'TRX', direction: 'withdraw', since: 5 * H, message: null }],
        outages: [{ exchange: 'main', coin: 'USDT', network: 'TRX', direction: 'withdraw', from: 5 * H, to: null, message: null }],
        // Still scheduled past its begin: shown; one beginning exactly 24 h on: shown; after: not.
        maintenance: [{ exchange: 'main', title: 'Overdue', state: 'scheduled', begins: 9 * H, ends: null }, { exchange: 'main', title: 'Tomorrow', state: 'scheduled', begins: 34 * H, ends: null }],
        movers: [{ exchange: 'main', symbol: 'XUSDT', changePercent: 1 }],
      });
    } finally {
      t.close();
    }
  });

  it('reaches a receiver through the notification path (outbox, retry stage) as a webhook v4 body', async () => {
    const t = openTempStore();
    const server = await new WebhookReceiver().start();
    const dispatcher = new Agent();
    const notifications = new Notifications(config('', `${server.url}/hook`), {
      store: t.store, clock: systemClock, random: () => 0.5, logger: silentLogger(), dispatcher, externalURL: 'http://sw', activeAlerts: () => [], onOutcome: () => undefined,
    });
    try {
      notifications.start();
      notifications.sendDeliveries([digestDelivery('desk', '2026-03-28', { summary: 's', description: 'd' }, 0, notifications.externalURL)]);
      const got = await waitFor(() => server.received[0], 'the digest to arrive');
      expect(got.body).toMatchObject({ version: '4', receiver: 'desk', groupKey: '{}:{digest="2026-03-28"}', status: 'firing', commonAnnotations: { summary: 's', description: 'd' } });
    } finally {
      await notifications.stop();
      await server.stop();
      await dispatcher.close();
      t.close();
    }
  });
});
