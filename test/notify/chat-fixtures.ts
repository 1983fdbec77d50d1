import { fingerprint, type Alert } from '../../src/alerts/alert';
import { buildDelivery } from '../../src/notify/pipeline/build-delivery';
import { NotifyError, type Delivery } from '../../src/notify/notifier';
import type { ReceiverDeps } from '../../src/notify/plugin';
import { DiscordDouble } from '../support/doubles/discord';
import { PagerDutyDouble } from '../support/doubles/pagerduty';
import type { ServiceDouble } from '../support/doubles/service';
import { SlackDouble } from '../support/doubles/slack';
import { receiverDeps } from '../support/receiver-deps';
import { stack, type Stack } from '../support/daemon-harness';

/** Alerts and deliveries the chat receivers' tests share. */

export const T0 = Date.UTC(2026, 0, 2, 3, 4, 5);
export const EXTERNAL_URL = 'http://sw.example:9464';

/** Upstream text an exchange could send: markup, scripts, mentions and links of every service. */
export const HOSTILE = '<script>alert(1)</script> @everyone @here <@123> <@&456> <!channel> <@U123> <http://evil.example|click> [click](http://evil.example) **bold** & more';

/** A message far beyond any service's limit. */
export const HUGE = 'Z'.repeat(100_000);

export const TRC_LABELS = { alertname: 'WithdrawDisabled', exchange: 'main', severity: 'critical', coin: 'USDT', network: 'Tron(TRC20)', chain: 'tron', kind: 'withdraw_disabled' };

/** A firing state alert: USDT withdrawals closed on Tron, with the exchange's message. */
export function closed(message = 'Wallet maintenance', labels: Record<string, string> = {}): Alert {
  const all = { ...TRC_LABELS, ...labels };
  return {
    fingerprint: fingerprint(all),
    ruleId: 'r', entity: all.network,
    labels: all,
    annotations: { summary: `${all.coin} withdrawals disabled on ${all.network} (main)`, description: `Exchange message: ${message}`, withdraw_desc: message },
    status: 'firing', activeAt: T0, startsAt: T0, endsAt: null, lastActiveAt: T0, lastNotifiedAt: T0, value: 1, event: false,
  };
}

/** The same alert, resolved an hour later. */
export function reopened(a: Alert): Alert {
  return { ...a, status: 'resolved', endsAt: T0 + 3_600_000 };
}

/** A change event (fires once): its fingerprint has its time, as the lifecycle makes it. */
export function descSet(message: string): Alert {
  const labels = { alertname: 'MaintenanceMessage', exchange: 'main', severity: 'info', coin: 'USDT', network: 'Tron(TRC20)', kind: 'withdraw_desc_set' };
  return {
    fingerprint: fingerprint(labels, String(T0)),
    ruleId: 'm', entity: 'e',
    labels,
    annotations: { summary: 'USDT on Tron(TRC20): withdraw desc set (main)', description: `withdraw desc set: (none) -> ${message}`, withdraw_desc: message },
    status: 'firing', activeAt: T0, startsAt: T0, endsAt: null, lastActiveAt: T0, lastNotifiedAt: T0, value: null, event: true,
  };
}

/** A group's delivery, grouped by exchange and alertname as the default config does. */
export function delivery(alerts: Alert[], receiver = 'desk'): Delivery {
  const alertname = alerts[0]?.labels.alertname ?? 'WithdrawDisabled';
  return buildDelivery(receiver, { exchange: 'main', alertname }, alerts, EXTERNAL_URL, 1000);
}

/** `n` closed networks, each its own alert (a storm). */
export function storm(n: number, message = 'Wallet maintenance'): Alert[] {
  return Array.from({ length: n }, (_, i) => closed(message, { network: `NET${String(i).padStart(4, '0')}`, chain: `chain${i}` }));
}

/** What a send threw, as a NotifyError (the test fails if it was anything else, or nothing). */
export async function rejection(send: Promise<void>): Promise<NotifyError> {
  const err = await send.then(() => undefined, (e: unknown) => e);
  if (!(err instanceof NotifyError)) throw new Error(`expected a NotifyError, got ${String(err)}`);
  return err;
}

/** A started double and a receiver's edges for each test of the file, closed after it. */
export function perTest<D extends ServiceDouble>(make: () => D): { double: D; deps: ReceiverDeps } {
  const env = {} as { double: D; deps: ReturnType<typeof receiverDeps> };
  beforeEach(async () => {
    env.deps = receiverDeps();
    env.double = await make().start();
  });
  afterEach(async () => {
    await env.deps.close();
    await env.double.stop();
  });
  return env;
}

/** The three services' doubles, started. */
export async function chatDoubles(): Promise<{ discord: DiscordDouble; slack: SlackDouble; pd: PagerDutyDouble; stop(): Promise<void> }> {
  const [discord, slack, pd] = await Promise.all([new DiscordDouble().start(), new SlackDouble().start(), new PagerDutyDouble().start()]);
  return { discord, slack, pd, stop: async () => { await Promise.all([discord.stop(), slack.stop(), pd.stop()]); } };
}

/** A closure of USDT on Tron at the reference exchange, the rule that tells it, and the labels of its alert: what the receivers' daemon tests drive. */
export const USDT_CLOSED_RULES = `
rules:
  - alert: WithdrawDisabled
    state: withdraw_disabled
    match: { coin: USDT }
    severity: critical
`;
export const TRC_NETWORK = { coin: 'USDT', network: 'Tron(TRC20)' };

/**
 * For a file's daemon tests: a started double and a daemon watching the reference exchange
 * (USDT_CLOSED_RULES) whose one receiver, `receiver(double)` (YAML list items), talks to it; both
 * closed after the file's tests.
 */
export function daemonWithDouble<D extends { stop(): Promise<void> }>(start: () => Promise<D>, receiver: (double: D) => string): { s: Stack; double: D } {
  const env = {} as { s: Stack; double: D };
  beforeAll(async () => {
    env.double = await start();
    env.s = await stack(USDT_CLOSED_RULES, { receivers: () => receiver(env.double) });
  });
  afterAll(async () => {
    await env.s?.close();
    await env.double?.stop();
  });
  return env;
}
