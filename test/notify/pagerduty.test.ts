import type { Notifier } from '../../src/notify/notifier';
import { pagerduty } from '../../src/notify/pagerduty';
import { DETAIL_LIMIT, PAGERDUTY_LIMITS, pagerdutySeverity } from '../../src/notify/pagerduty/events';
import type { PagerDutyConfig } from '../../src/notify/pagerduty/schema';
import { PAGERDUTY_ROUTING_KEY, PagerDutyDouble } from '../support/doubles/pagerduty';
import { closed, delivery, descSet, HOSTILE, HUGE, perTest, rejection, reopened, storm } from './chat-fixtures';

// Work at full size (an 8,000-alert storm, thousands of coins) takes seconds on a loaded machine: no test of this file is bound by its speed.
jest.setTimeout(60_000);

const env = perTest(() => new PagerDutyDouble());

/** The receiver as the registry builds it from a `pagerduty:` block. */
function notifier(over: Partial<PagerDutyConfig> = {}): Notifier {
  return pagerduty.create('pager', { routing_key: PAGERDUTY_ROUTING_KEY, url: env.double.enqueueUrl, timeout: 2000, events: 'trigger_and_resolve', ...over }, env.deps);
}

const TRC = closed();

describe('pagerduty receiver', () => {
  it('triggers an incident per alert, keyed by its fingerprint, with its labels and the exchange\'s message', async () => {
    await notifier().send(delivery([TRC]));
    expect(env.double.replies[0]).toEqual({ status: 202, body: { status: 'success', message: 'Event processed', dedup_key: TRC.fingerprint } });
    expect(env.double.requests[0]?.json).toEqual({
      routing_key: PAGERDUTY_ROUTING_KEY,
      event_action: 'trigger',
      dedup_key: '72e6ada129d8b016',
      payload: {
        summary: 'USDT withdrawals disabled on Tron(TRC20) (main): Wallet maintenance',
        source: 'main',
        severity: 'critical',
        timestamp: '2026-01-02T03:04:05.000Z',
        component: 'USDT Tron(TRC20)',
        class: 'withdraw_disabled',
        custom_details: {
          labels: TRC.labels,
          message: 'Wallet maintenance',
          description: 'Exchange message: Wallet maintenance',
          firing_since: '2026-01-02T03:04:05.000Z',
        },
      },
      client: 'spotwatch',
      client_url: 'http://sw.example:9464',
      links: [{ href: 'http://sw.example:9464/#72e6ada129d8b016', text: 'This alert on the spotwatch status page' }],
    });
    expect(env.double.incidents.get(TRC.fingerprint)?.status).toBe('triggered');
  });

  it('resolves the incident when the alert resolves, and a group becomes one event per alert', async () => {
    const other = closed('x', { network: 'BSC', chain: 'bsc' });
    await notifier().send(delivery([TRC, other]));
    await notifier().send(delivery([reopened(TRC), other]));
    expect(env.double.requests.map((r) => r.json)).toEqual([
      expect.objectContaining({ event_action: 'trigger', dedup_key: TRC.fingerprint }),
      expect.objectContaining({ event_action: 'trigger', dedup_key: other.fingerprint }),
      { routing_key: PAGERDUTY_ROUTING_KEY, event_action: 'resolve', dedup_key: TRC.fingerprint },
      expect.objectContaining({ event_action: 'trigger', dedup_key: other.fingerprint }),
    ]);
    expect([...env.double.incidents].map(([key, i]) => [key, i.status, i.events.length])).toEqual([[TRC.fingerprint, 'resolved', 2], [other.fingerprint, 'triggered', 2]]);
  });

  it('triggers and resolves a change alert at once, or only triggers it when configured so', async () => {
    const event = descSet('Upgrade at 10:00');
    await notifier().send(delivery([event]));
    expect(env.double.events.map((e) => e.event_action)).toEqual(['trigger', 'resolve']);
    expect(env.double.incidents.get(event.fingerprint)?.status).toBe('resolved');
    expect(env.double.events[0]?.payload?.severity).toBe('info');
    await notifier({ events: 'trigger_only' }).send(delivery([event]));
    expect(env.double.events.map((e) => e.event_action)).toEqual(['trigger', 'resolve', 'trigger']);
    expect(env.double.incidents.get(event.fingerprint)?.status).toBe('triggered');
  });

  it('cuts a 100 KB summary to 1,024 characters and the details to their limit; hostile text goes as it is, in JSON', async () => {
    await notifier().send(delivery([closed(HUGE), closed(HOSTILE, { network: 'BSC' })]));
    expect(env.double.replies.map((r) => r.status)).toEqual([202, 202]);
    expect(env.double.events[0]?.payload?.summary).toHaveLength(PAGERDUTY_LIMITS.summary);
    expect(env.double.events[0]?.payload?.summary?.endsWith('ZZ…')).toBe(true);
    expect((env.double.events[0]?.payload?.custom_details as { message: string }).message).toHaveLength(DETAIL_LIMIT);
    expect(env.double.events[1]?.payload?.summary).toBe(`USDT withdrawals disabled on BSC (main): ${HOSTILE}`);
  });

  it.each([
    ['critical', 'critical'], ['error', 'error'], ['warning', 'warning'], ['info', 'info'],
    ['CRITICAL', 'critical'], ['page', 'critical'], ['high', 'error'], ['warn', 'warning'], ['low', 'info'], ['whatever', 'warning'], [undefined, 'warning'],
  ])('maps the rule severity %s to PagerDuty\'s %s', (severity, expected) => {
    expect(pagerdutySeverity(severity)).toBe(expected);
  });

  it('gives up on a 400 with PagerDuty\'s errors, and keeps the routing key out of the message', async () => {
    const err = await rejection(notifier({ routing_key: 'short' }).send(delivery([TRC])));
    expect(err).toMatchObject({ reason: 'client_error', retryable: false, message: 'PagerDuty answered HTTP 400: Event object is invalid: Length of \'routing_key\' is incorrect (should be 32 characters)' });
    env.double.forced.push({ status: 400, body: { status: 'invalid event', message: 'Event object is invalid', errors: [`routing_key ${PAGERDUTY_ROUTING_KEY} not found`] } });
    expect((await rejection(notifier().send(delivery([TRC])))).message).toBe('PagerDuty answered HTTP 400: Event object is invalid: routing_key <redacted> not found');
  });

  it('retries a 429 and a 5xx, and on the retry sends only the events not yet accepted', async () => {
    const alerts = storm(3);
    const d = delivery(alerts);
    const pager = notifier();
    env.double.forced.push({ status: 202, body: { status: 'success', message: 'Event processed', dedup_key: alerts[0]?.fingerprint ?? '' } });
    env.double.throttle();
    expect(await rejection(pager.send(d))).toMatchObject({ reason: 'rate_limited', retryable: true, message: 'PagerDuty answered HTTP 429: Too many API calls at a time.' });
    env.double.forced.push({ status: 503, headers: { 'retry-after': '2' }, body: { status: 'Service Unavailable', message: 'try again' } });
    expect(await rejection(pager.send(d))).toMatchObject({ reason: 'server_error', retryable: true, retryAfterMs: 2000, message: 'PagerDuty answered HTTP 503: try again' });
    await pager.send(d);
    expect(env.double.requests.map((r) => (r.json as { dedup_key: string }).dedup_key)).toEqual([0, 1, 1, 1, 2].map((i) => alerts[i]?.fingerprint));
    expect(env.double.events).toHaveLength(2); // the first was the forced 202: each alert told once
  });

  it('renders the summary template over the data model', async () => {
    await notifier({ summary_template: '[{{labels.severity}}] {{where}}: {{message}}' }).send(delivery([TRC]));
    expect(env.double.events[0]?.payload?.summary).toBe('[critical] main · USDT · Tron(TRC20) · tron: Wallet maintenance');
  });
});
