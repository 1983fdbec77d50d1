import { Agent } from 'undici';
import { parseConfig } from '../../src/config';
import { systemClock } from '../../src/lib/clock';
import { Notifications } from '../../src/notify/orchestrator';
import { receiverRegistry } from '../../src/notify/registry';
import { DISCORD_TOKEN, DiscordDouble } from '../support/doubles/discord';
import { PAGERDUTY_ROUTING_KEY, PagerDutyDouble } from '../support/doubles/pagerduty';
import type { ServiceDouble } from '../support/doubles/service';
import { SLACK_PATH, SlackDouble } from '../support/doubles/slack';
import { openTempStore, type TempStore } from '../support/temp-store';
import { waitFor } from '../support/wait';
import { closed } from './chat-fixtures';
import { capturedLogger } from '../support/log-capture';

/**
 * Each chat receiver behind the real pipeline, outbox and retry stage: a rate limit is waited out
 * for as long as the service asks, a permanent refusal goes to the dead letters with the
 * service's words, and neither the logs nor the dead letters hold a secret.
 */
interface Case {
  kind: string;
  /** A started double, and the receiver's block pointing at it (or, `broken`, at something it refuses for good). */
  double(): Promise<ServiceDouble>;
  block(broken: boolean): string;
  /** Makes the next answer a 429 asking for about a second. */
  rateLimit(): void;
  /** Messages (events, for PagerDuty) the service accepted. */
  delivered(): number;
  /** The dead letter's error when the block is broken. */
  refused: string;
}

/** A case around a double of its own type, started by `double()`. */
function serviceCase<D extends ServiceDouble>(kind: string, make: () => D, c: { block(d: D, broken: boolean): string; rateLimit(d: D): void; delivered(d: D): number; refused: string }): Case {
  let d: D | undefined;
  const started = (): D => {
    if (d === undefined) throw new Error('the double is not started');
    return d;
  };
  return {
    kind,
    refused: c.refused,
    double: async () => (d = await make().start()),
    block: (broken) => c.block(started(), broken),
    rateLimit: () => c.rateLimit(started()),
    delivered: () => c.delivered(started()),
  };
}

const CASES: Case[] = [
  serviceCase('discord', () => new DiscordDouble(), {
    block: (d, broken) => `discord: { webhook_url: "${d.webhookUrl}${broken ? 'x' : ''}" }`,
    rateLimit: (d) => d.rateLimit(0.9),
    delivered: (d) => d.messages.length,
    refused: 'Discord answered HTTP 401: Invalid Webhook Token (code 50027)',
  }),
  serviceCase('slack', () => new SlackDouble(), {
    refused: 'Slack answered HTTP 403: invalid_token',
    block: (d, broken) => `slack: { webhook_url: "${d.webhookUrl}${broken ? 'x' : ''}" }`,
    delivered: (d) => d.messages.length,
    rateLimit: (d) => d.rateLimit(1),
  }),
  // A mistyped url: PagerDuty's routing keys are only checked for their length.
  serviceCase('pagerduty', () => new PagerDutyDouble(), {
    block: (d, broken) => `pagerduty: { routing_key: "${PAGERDUTY_ROUTING_KEY}", url: "${d.enqueueUrl}${broken ? 'x' : ''}" }`,
    rateLimit: (d) => d.forced.push({ status: 429, headers: { 'retry-after': '1' }, body: { status: 'throttled', message: 'Too many API calls at a time.' } }),
    refused: 'PagerDuty answered HTTP 404: Not Found',
    delivered: (d) => d.events.length,
  }),
];

describe.each(CASES)('the $kind receiver behind the pipeline', (c) => {
  let temp: TempStore;
  let double: ServiceDouble;
  let dispatcher: Agent;
  let notifications: Notifications | undefined;
  let log: ReturnType<typeof capturedLogger>;
  const outcomes: string[] = [];

  beforeEach(async () => {
    temp = openTempStore('spotwatch-chat-');
    double = await c.double();
    dispatcher = new Agent();
    log = capturedLogger('debug', { redact: receiverRegistry.logRedactPaths() });
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
    const text = `exchanges:\n  - name: main\nnotify:\n  group_wait: 0s\n  group_interval: 1s\n  retry: { base_delay: 10ms, max_delay: 20ms }\n  receivers:\n    - name: desk\n      ${c.block(broken)}\n`;
    const parsed = parseConfig(text, 'c.yaml', {}, '/');
    if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
    const n = new Notifications(parsed.config, {
      store: temp.store,
      clock: systemClock,
      random: () => 0.5,
      logger: log.logger,
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
    c.rateLimit();
    n.insert([closed()]);
    await waitFor(() => outcomes.includes('desk success'), 'the delivery after the rate limit', 10_000);
    expect(c.delivered()).toBe(1);
    expect(n.pendingDeliveries('desk')).toBe(0);
    const [limited, retried] = double.requests;
    expect(retried!.at - limited!.at).toBeGreaterThanOrEqual(900);
    expect(outcomes).toEqual(['desk retry rate_limited', 'desk success']);
  });

  it('sends a refused notification to the dead letters with the service\'s words, and no secret in the logs', async () => {
    const n = start(true);
    n.insert([closed()]);
    await waitFor(() => temp.store.deadLetters(10).length === 1, 'the dead letter');
    expect(temp.store.deadLetters(10)[0]).toMatchObject({ receiver: 'desk', attempts: 1, error: c.refused });
    expect(outcomes).toEqual(['desk failed client_error']);
    expect(double.requests).toHaveLength(1);
    expect(log.text()).toContain(c.refused);
    expect(log.text()).not.toMatch(new RegExp([DISCORD_TOKEN.slice(0, 12), SLACK_PATH.slice(-12), PAGERDUTY_ROUTING_KEY.slice(0, 12)].join('|')));
  });
});
