import { Agent } from 'undici';
import type { Alert } from '../../src/alerts/alert';
import { parseConfig, type Config } from '../../src/config';
import { createLogger } from '../../src/lib/logger';
import { Notifications } from '../../src/notify/orchestrator';
import { steppingClock } from '../support/stepping-clock';
import { openTempStore, type TempStore } from '../support/temp-store';
import { waitFor } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';

const S = 1000;
const H = 3_600_000;
const T = Date.parse('2026-05-01T12:00:00Z');

function config(url: string): Config {
  const text = `exchanges:\n  - name: main\nnotify:\n  group_wait: 10s\n  group_interval: 1m\n  repeat_interval: 4h\n  receivers:\n    - name: hook\n      webhook: { url: "${url}" }\n`;
  const r = parseConfig(text, 'c.yaml', {}, '/');
  if (!r.ok) throw new Error(r.problems.join('\n'));
  return r.config;
}

const closed = (at: number): Alert => ({
  fingerprint: 'fp-usdt', ruleId: 'r', entity: 'USDT/TRX', labels: { alertname: 'WithdrawClosed', exchange: 'main', severity: 'critical', coin: 'USDT', network: 'TRX' },
  annotations: {}, status: 'firing', activeAt: at, startsAt: at, endsAt: null, lastActiveAt: at, lastNotifiedAt: at, value: 1, event: false,
});

describe('a wall clock stepped during group_wait', () => {
  let temp: TempStore;
  let hook: WebhookReceiver;
  let dispatcher: Agent;
  let notifications: Notifications | undefined;
  let logged: string[];
  beforeEach(async () => {
    temp = openTempStore('spotwatch-clock-step-');
    hook = await new WebhookReceiver().start();
    dispatcher = new Agent();
    logged = [];
  });
  afterEach(async () => {
    await notifications?.stop();
    await hook.stop();
    await dispatcher.close();
    temp.close();
  });

  function start(clock: ReturnType<typeof steppingClock>): Notifications {
    const logger = createLogger({ level: 'warn', format: 'json', destination: { write: (line: string) => void logged.push(line) } });
    notifications = new Notifications(config(`${hook.url}/hook`), {
      store: temp.store, clock, random: () => 0.5, logger, dispatcher, externalURL: 'http://sw', activeAlerts: () => [], onOutcome: () => undefined,
    });
    return notifications;
  }

  it.each([
    ['back', -H],
    ['forward', H],
  ])('%s an hour: the closure is told after group_wait of real time, once', async (_way, stepMs) => {
    const clock = steppingClock(T);
    const n = start(clock);
    n.insert([closed(T)]);
    clock.advance(5 * S);
    n.tick();
    clock.step(stepMs);
    n.tick();
    clock.advance(4_999);
    n.tick();
    expect(n.pendingDeliveries('hook')).toBe(0);
    clock.advance(1);
    n.tick();
    const got = await waitFor(() => hook.received[0], 'the closure');
    // The double has the body before the daemon has its answer: the outbox row is settled after.
    await waitFor(() => n.pendingDeliveries('hook') === 0, 'the delivery settled');
    // Shown as it was decided: its start is the wall time it began at.
    expect((got.body as { alerts: { status: string; startsAt: string; endsAt: string }[] }).alerts.map((a) => [a.status, a.startsAt, a.endsAt])).toEqual([['firing', '2026-05-01T12:00:00.000Z', '0001-01-01T00:00:00Z']]);
    // group_interval later, and an hour after that: nothing new to tell (repeat_interval is 4 h).
    clock.advance(60 * S);
    n.tick();
    clock.advance(H);
    n.tick();
    expect(n.pendingDeliveries('hook')).toBe(0);
    expect(hook.received).toHaveLength(1);
    const steps = logged.map((l) => JSON.parse(l) as { msg: string; stepMs?: number }).filter((l) => l.msg === 'clock stepped');
    expect(steps.map((l) => l.stepMs)).toEqual([stepMs]);
  });

  it('the clock set back: a repeat comes repeat_interval of real time after the last, not an hour later', async () => {
    const clock = steppingClock(T);
    const n = start(clock);
    n.insert([closed(T)]);
    clock.advance(10 * S);
    n.tick();
    await waitFor(() => hook.received.length === 1, 'the closure');
    clock.step(-H);
    for (let i = 0; i < 4 * 60 - 1; i++) {
      clock.advance(60 * S);
      n.tick();
    }
    expect(n.pendingDeliveries('hook')).toBe(0);
    expect(hook.received).toHaveLength(1);
    clock.advance(60 * S);
    n.tick();
    await waitFor(() => hook.received.length === 2, 'the repeat, 4 h after the first');
  });
});
