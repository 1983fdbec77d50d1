import { Writable } from 'node:stream';
import { Agent } from 'undici';
import { parseConfig } from '../../src/config';
import { systemClock } from '../../src/lib/clock';
import { createLogger } from '../../src/lib/logger';
import { Notifications } from '../../src/notifications';
import { receiverRegistry } from '../../src/notify/registry';
import { DISCORD_TOKEN, DiscordDouble } from '../support/doubles/discord';
import { PAGERDUTY_ROUTING_KEY, PagerDutyDouble } from '../support/doubles/pagerduty';
import type { ServiceDouble } from '../support/doubles/service';
import { SLACK_PATH, SlackDouble } from '../support/doubles/slack';
import { openTempStore, type TempStore } from '../support/temp-store';
import { waitFor } from '../support/wait';
import { closed } from './chat-fixtures';

/**
 * Each chat receiver behind the real pipeline, outbox and retry stage: a rate limit is waited out
 * for as long as the service asks, a permanent refusal goes to the dead letters with the
 * service's words, and neither the logs nor the dead letters hold a secret.
 */
interface Case<D extends ServiceDouble> {
  kind: string;
  double: () => D;
  /** The receiver's block, pointing at the double (or, `broken`, at something it refuses for good). */
  block(d: D, broken?: boolean): string;
  /** Makes the next answer a 429 asking for about a second. */
  rateLimit(d: D): void;
  delivered(d: D): number;
  /** The dead letter's error when the block is broken. */
  refused: string;
}

const CASES: Case<ServiceDouble>[] = [
  {
    kind: 'discord',
    double: () => new DiscordDouble(),
    block: (d, broken) => `discord: { webhook_url: "${(d as DiscordDouble).webhookUrl}${broken ? 'x' : ''}" }`,
    rateLimit: (d) => (d as DiscordDouble).rateLimit(0.9),
    delivered: (d) => (d as DiscordDouble).messages.length,
    refused: 'Discord answered HTTP 401: Invalid Webhook Token (code 50027)',
  } satisfies Case<DiscordDouble> as Case<ServiceDouble>,
  {
    kind: 'slack',
    double: () => new SlackDouble(),
    block: (d, broken) => `slack: { webhook_url: "${(d as SlackDouble).webhookUrl}${broken ? 'x' : ''}" }`,
    rateLimit: (d) => (d as SlackDouble).rateLimit(1),
    delivered: (d) => (d as SlackDouble).messages.length,
    refused: 'Slack answered HTTP 403: invalid_token',
  } satisfies Case<SlackDouble> as Case<ServiceDouble>,
  {
    kind: 'pagerduty',
    double: () => new PagerDutyDouble(),
    // A mistyped url: PagerDuty's routing keys are only checked for their length.
    block: (d, broken) => `pagerduty: { routing_key: "${PAGERDUTY_ROUTING_KEY}", url: "${(d as PagerDutyDouble).enqueueUrl}${broken ? 'x' : ''}" }`,
    rateLimit: (d) => d.forced.push({ status: 429, headers: { 'retry-after': '1' }, body: { status: 'throttled', message: 'Too many API calls at a time.' } }),
    delivered: (d) => (d as PagerDutyDouble).events.length,
    refused: 'PagerDuty answered HTTP 404: Not Found',
  } satisfies Case<PagerDutyDouble> as Case<ServiceDouble>,
];

describe.each(CASES)('the $kind receiver behind the pipeline', (c) => {
  let temp: TempStore;
  let double: ServiceDouble;
  let dispatcher: Agent;
  let notifications: Notifications | undefined;
  const logs: string[] = [];
  const outcomes: string[] = [];

  beforeEach(async () => {
    temp = openTempStore('spotwatch-chat-');
    double = await c.double().start();
    dispatcher = new Agent();
    logs.length = 0;
    outcomes.length = 0;
  });
  afterEach(async () => {
    await notifications?.stop();
    notifications = undefined;
    await double.stop();
    await dispatcher.close();
    temp.close();
  });

  function start(broken = false): Notifications {
    const text = `exchanges:\n  - name: main\nnotify:\n  group_wait: 0s\n  group_interval: 1s\n  retry: { base_delay: 10ms, max_delay: 20ms }\n  receivers:\n    - name: desk\n      ${c.block(double, broken)}\n`;
    const parsed = parseConfig(text, 'c.yaml', {}, '/');
    if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
    const n = new Notifications(parsed.config, {
      store: temp.store,
      clock: systemClock,
      random: () => 0.5,
      logger: createLogger({ level: 'debug', redact: receiverRegistry.logRedactPaths(), destination: new Writable({ write: (l: Buffer, _e, done) => { logs.push(l.toString()); done(); } }) }),
      dispatcher,
      externalURL: 'http://sw',
      activeAlerts: () => [],
      onOutcome: (receiver, outcome, reason) => outcomes.push(`${receiver} ${outcome}${reason ? ` ${reason}` : ''}`),
    });
    n.start();
    notifications = n;
    return n;
  }

  it('waits as long as the service asks after a 429, then delivers', async () => {
    const n = start();
    c.rateLimit(double);
    n.insert([closed()]);
    await waitFor(() => c.delivered(double) === 1, 'the delivery after the rate limit', 10_000);
    const [limited, retried] = double.requests;
    expect(retried!.at - limited!.at).toBeGreaterThanOrEqual(900);
    expect(outcomes).toEqual(['desk retry rate_limited', 'desk success']);
    await waitFor(() => n.pendingDeliveries('desk') === 0, 'the outbox to be empty');
  });

  it('sends a refused notification to the dead letters with the service\'s words, and no secret in the logs', async () => {
    const n = start(true);
    n.insert([closed()]);
    await waitFor(() => temp.store.deadLetters(10).length === 1, 'the dead letter');
    expect(temp.store.deadLetters(10)[0]).toMatchObject({ receiver: 'desk', attempts: 1, error: c.refused });
    expect(outcomes).toEqual(['desk failed client_error']);
    expect(double.requests).toHaveLength(1);
    expect(logs.join('')).toContain(c.refused);
    expect(logs.join('')).not.toMatch(new RegExp([DISCORD_TOKEN.slice(0, 12), SLACK_PATH.slice(-12), PAGERDUTY_ROUTING_KEY.slice(0, 12)].join('|')));
  });
});
