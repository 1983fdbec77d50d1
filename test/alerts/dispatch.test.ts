import type { Alert } from '../../src/alerts/alert';
import { Dispatcher } from '../../src/alerts/dispatch';
import { silentLogger } from '../../src/lib/logger';
import { manualClock } from '../../src/lib/clock';
import { webhookNotifier } from '../../src/notify/webhook/webhook';
import { waitFor } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';

function alert(i: number, over: Partial<Alert> = {}): Alert {
  return {
    fingerprint: i.toString(16).padStart(16, '0'), ruleId: 'r', entity: String(i),
    labels: { alertname: 'WithdrawDisabled', exchange: 'main', severity: 'critical', coin: `C${i}`, network: 'N', kind: 'withdraw_disabled' },
    annotations: { summary: 's' }, status: 'firing', activeAt: 0, startsAt: 0, endsAt: null, lastActiveAt: 0, lastNotifiedAt: 0, value: 1, event: false,
    ...over,
  };
}

describe('Dispatcher', () => {
  let receiver: WebhookReceiver;
  beforeEach(async () => {
    receiver = await new WebhookReceiver().start();
  });
  afterEach(() => receiver.stop());

  function dispatcher(sendResolved = true, outcomes: string[] = []): Dispatcher {
    return new Dispatcher({
      receivers: [{ notifier: webhookNotifier({ name: 'hook', url: receiver.url, timeoutMs: 2000 }), sendResolved }],
      groupBy: ['exchange', 'alertname'],
      externalURL: 'http://sw',
      clock: manualClock(0),
      logger: silentLogger(),
      onOutcome: (r, o) => outcomes.push(`${r}:${o}`),
    });
  }

  it('turns a storm of 3,000 flips into one notification per group', async () => {
    const d = dispatcher();
    const storm = Array.from({ length: 3000 }, (_, i) => alert(i));
    d.dispatch([...storm, alert(5000, { labels: { ...alert(0).labels, alertname: 'DepositDisabled' } })]);
    await d.flush();
    expect(receiver.received.map((r) => [(r.body as { groupKey: string }).groupKey, (r.body as { alerts: unknown[] }).alerts.length]).sort()).toEqual([
      ['{}:{alertname="DepositDisabled",exchange="main"}', 1],
      ['{}:{alertname="WithdrawDisabled",exchange="main"}', 3000],
    ]);
    await d.stop();
  });

  it('drops resolved alerts for a receiver with send_resolved: false', async () => {
    const d = dispatcher(false);
    d.dispatch([alert(1, { status: 'resolved', endsAt: 5 })]);
    d.dispatch([alert(2)]);
    await d.flush();
    expect(receiver.received.map((r) => (r.body as { status: string }).status)).toEqual(['firing']);
    await d.stop();
  });

  it('retries a failing receiver with the same idempotency key, then delivers once', async () => {
    receiver.replies.push({ status: 503 }, { status: 500, retryAfter: '0' });
    const outcomes: string[] = [];
    const d = dispatcher(true, outcomes);
    d.dispatch([alert(1)]);
    await waitFor(() => receiver.received.length === 1, 'the delivery after two failures');
    await d.flush();
    expect(outcomes).toEqual(['hook:retry', 'hook:retry', 'hook:success']);
    expect(receiver.received).toHaveLength(1);
    await d.stop();
  });
});
