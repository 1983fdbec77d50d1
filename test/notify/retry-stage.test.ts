import type { Alert } from '../../src/alerts/alert';
import { buildDelivery } from '../../src/notify/pipeline/build-delivery';
import { RetryStage, type Outcome } from '../../src/notify/pipeline/retry-stage';
import { systemClock } from '../../src/lib/clock';
import { silentLogger } from '../../src/lib/logger';
import { webhookNotifier } from '../../src/notify/webhook/webhook';
import type { StateStore } from '../../src/store/store';
import { openTempStore, type TempStore } from '../support/temp-store';
import { waitFor } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';
import { receiverDeps } from '../support/receiver-deps';

/** A connection pool per test, closed after it, as each notifier used to open and close its own. */
let deps: ReturnType<typeof receiverDeps>;
beforeEach(() => {
  deps = receiverDeps();
});
afterEach(() => deps.close());

const alert: Alert = {
  fingerprint: '00000000000000aa', ruleId: 'r', entity: 'e', labels: { alertname: 'W', exchange: 'main', severity: 'critical' },
  annotations: {}, status: 'firing', activeAt: 0, startsAt: 0, endsAt: null, lastActiveAt: 0, lastNotifiedAt: 0, value: 1, event: false,
};

describe('RetryStage', () => {
  let temp: TempStore;
  let store: StateStore;
  let receiver: WebhookReceiver;
  let sender: RetryStage | undefined;
  const outcomes: string[] = [];

  beforeEach(async () => {
    temp = openTempStore('spotwatch-sender-');
    store = temp.store;
    receiver = await new WebhookReceiver().start();
    outcomes.length = 0;
  });
  afterEach(async () => {
    await sender?.stop();
    await receiver.stop();
    temp.close();
  });

  function start(maxAgeMs = 60_000, resumed = false): RetryStage {
    sender = new RetryStage({
      notifier: webhookNotifier({ name: 'hook', url: receiver.url, timeoutMs: 1000 }, deps),
      port: store,
      policy: { baseMs: 20, maxMs: 100, maxAgeMs },
      clock: systemClock,
      random: () => 0.5,
      logger: silentLogger(),
      onOutcome: (_r, o: Outcome, reason) => outcomes.push(reason ? `${o}:${reason}` : o),
      idleMs: 50,
      resumed,
    });
    sender.start();
    return sender;
  }

  function enqueue(n: number): void {
    const now = Date.now();
    store.commitDeliveries(
      Array.from({ length: n }, (_, i) => ({ receiver: 'hook', groupKey: `g${i}`, delivery: buildDelivery('hook', { i: String(i) }, [alert], 'http://sw', now + i), entry: undefined })),
      now,
    );
  }

  /** The store as a port that hides its first `n` looks' read errors (as the held outbox does): they read nothing, and say so. */
  function failingReads(n: number) {
    let failing = n;
    let failed = false;
    return {
      dueDeliveries: (receiverName: string, now: number, limit: number) => {
        failed = failing-- > 0;
        return failed ? [] : store.dueDeliveries(receiverName, now, limit);
      },
      nextDeliveryAt: (receiverName: string) => (failed ? undefined : store.nextDeliveryAt(receiverName)),
      deliveryDone: (id: number, now: number) => store.deliveryDone(id, now),
      deliveryRetry: (id: number, attempts: number, nextAt: number, error: string) => store.deliveryRetry(id, attempts, nextAt, error),
      deliveryDead: (id: number, attempts: number, error: string, now: number) => store.deliveryDead(id, attempts, error, now),
      pendingDeliveries: (receiverName: string) => store.pendingDeliveries(receiverName),
      get readFailing() {
        return failed;
      },
    };
  }

  it('keeps retrying a failing receiver, then delivers everything exactly once, in order', async () => {
    receiver.replies.push(...Array.from({ length: 8 }, () => ({ status: 503 })));
    enqueue(3);
    start().wake();
    await waitFor(() => receiver.received.length === 3 && store.pendingDeliveries('hook') === 0, 'all three delivered');
    expect(receiver.received.map((r) => (r.body as { groupLabels: { i: string } }).groupLabels.i)).toEqual(['0', '1', '2']);
    expect(new Set(receiver.received.map((r) => r.headers['idempotency-key'])).size).toBe(3);
    expect(outcomes.filter((o) => o === 'success')).toHaveLength(3);
    expect(outcomes.filter((o) => o.startsWith('retry'))).toHaveLength(8);
  });

  it('with nothing due waits for a wake (not a second\'s poll), but looks again within a second while its port cannot read the outbox', async () => {
    const port = failingReads(2);
    enqueue(1);
    const t0 = Date.now();
    sender = new RetryStage({
      notifier: webhookNotifier({ name: 'hook', url: receiver.url, timeoutMs: 1000 }, deps),
      port,
      policy: { baseMs: 20, maxMs: 100, maxAgeMs: 60_000 },
      clock: systemClock,
      random: () => 0.5,
      logger: silentLogger(),
      onOutcome: (_r, o: Outcome) => outcomes.push(o),
      // The default idle wait (30 s): only the second's looks after a failed read deliver within the wait below.
    });
    sender.start();
    await waitFor(() => outcomes.length === 1, 'delivered after the reads came back', 5_000);
    // Two failed looks, a second apart each: about 2 s, not the 30 s idle wait.
    const took = Date.now() - t0;
    expect([outcomes, took >= 2_000, took < 3_500]).toEqual([['success'], true, true]);
    // Nothing due now: a commit waits for its wake (no look a second later finds it)...
    enqueue(1);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(receiver.received).toHaveLength(1);
    // ...and is delivered at once when woken.
    const t1 = Date.now();
    sender.wake();
    await waitFor(() => receiver.received.length === 2, 'the woken delivery', 5_000);
    expect(Date.now() - t1).toBeLessThan(500);
  }, 15_000);

  it('resumed after a start, delivers what was pending at once even when its first look could not read the outbox (a stored backoff is not waited out)', async () => {
    enqueue(1);
    // As a crashed daemon left it: one attempt made, the next due in ten minutes.
    const [pending] = store.dueDeliveries('hook', Number.MAX_SAFE_INTEGER, 1);
    store.deliveryRetry(pending?.id as number, 1, Date.now() + 600_000, 'HTTP 503');
    const port = failingReads(1);
    sender = new RetryStage({
      notifier: webhookNotifier({ name: 'hook', url: receiver.url, timeoutMs: 1000 }, deps),
      port,
      policy: { baseMs: 20, maxMs: 100, maxAgeMs: 60_000 },
      clock: systemClock,
      random: () => 0.5,
      logger: silentLogger(),
      onOutcome: (_r, o: Outcome) => outcomes.push(o),
      resumed: true,
    });
    sender.start();
    await waitFor(() => outcomes.length === 1, 'the pending delivery, after the failed first look', 5_000);
    expect([outcomes, receiver.received.length]).toEqual([['success'], 1]);
  }, 15_000);

  it('moves a delivery the receiver refuses (4xx) to the dead letters at once', async () => {
    receiver.replies.push({ status: 400 });
    enqueue(1);
    start();
    await waitFor(() => store.deadLetters(10).length === 1, 'a dead letter');
    expect(store.deadLetters(10)[0]).toMatchObject({ receiver: 'hook', attempts: 1, error: 'webhook answered HTTP 400' });
    expect(outcomes).toEqual(['failed:client_error']);
    expect(store.pendingDeliveries('hook')).toBe(0);
  });

  it('at a start, delivers what an earlier process left pending at once: neither a stored backoff nor the deliveries behind it wait', async () => {
    enqueue(2);
    // As a crashed daemon left it: the first refused six times, its next attempt 4 minutes away.
    const [first] = store.dueDeliveries('hook', Date.now(), 1);
    store.deliveryRetry(first!.id, 6, Date.now() + 240_000, 'webhook answered HTTP 503');
    start(60_000, true);
    await waitFor(() => receiver.received.length === 2 && store.pendingDeliveries('hook') === 0, 'both delivered after the restart', 5_000);
    expect(receiver.received.map((r) => (r.body as { groupLabels: { i: string } }).groupLabels.i)).toEqual(['0', '1']);
    expect(outcomes).toEqual(['success', 'success']);
  });

  it('gives up on a delivery older than the maximum age', async () => {
    receiver.replies.push(...Array.from({ length: 100 }, () => ({ status: 500 })));
    enqueue(1);
    start(150);
    await waitFor(() => store.deadLetters(10).length === 1, 'a dead letter');
    expect(store.deadLetters(10)[0]?.error).toBe('webhook answered HTTP 500');
    expect(outcomes[outcomes.length - 1]).toBe('failed:server_error');
  });

  it('leaves a delivery pending across a stop, and sends it after a restart', async () => {
    receiver.replies.push({ status: 200, delayMs: 2000 });
    enqueue(1);
    start();
    await waitFor(() => outcomes.length === 0 && store.pendingDeliveries('hook') === 1, 'in flight');
    await sender?.stop();
    expect(store.pendingDeliveries('hook')).toBe(1);
    start();
    await waitFor(() => store.pendingDeliveries('hook') === 0, 'delivered after the restart');
    expect(receiver.received).toHaveLength(1);
  });
});
