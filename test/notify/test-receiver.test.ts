import { Agent } from 'undici';
import type { Alert } from '../../src/alerts/alert';
import { parseConfig, redactConfig, type Config } from '../../src/config';
import { systemClock } from '../../src/lib/clock';
import { silentLogger } from '../../src/lib/logger';
import { Notifications } from '../../src/notify/orchestrator';
import { openTempStore, type TempStore } from '../support/temp-store';
import { waitFor } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';
import { withProbe } from './test-receiver';

/**
 * A receiver kind added the way a real one is, end to end: the config validates its block and
 * names it in messages, redaction hides what it declares secret, and alerts reach a real
 * loopback server through the pipeline, the outbox and the retry stage.
 */
const FILE = 'c.yaml';
const config = (url: string): string => `exchanges:
  - name: main
notify:
  group_wait: 0s
  group_interval: 1s
  retry: { base_delay: 10ms, max_delay: 20ms }
  receivers:
    - name: desk
      probe: { url: "${url}", token: s3cr3t }
`;

function parsed(text: string): Config {
  const result = parseConfig(text, FILE, {}, '/etc/spotwatch', withProbe);
  if (!result.ok) throw new Error(result.problems.join('\n'));
  return result.config;
}

describe('a test-only receiver kind, registered like the others', () => {
  it('validates its block and fills its defaults', () => {
    expect(parsed(config('http://127.0.0.1:9/p')).notify.receivers).toStrictEqual([
      { name: 'desk', send_resolved: true, kind: 'probe', probe: { url: 'http://127.0.0.1:9/p', token: 's3cr3t', tag: 'none', timeout: 10_000 } },
    ]);
  });

  it('is named where the config lists the kinds, and its block is checked', () => {
    const text = 'exchanges:\n  - name: main\nnotify:\n  receivers:\n    - name: none\n    - name: bad\n      probe: { url: "http://h", token: "" }\n';
    expect(parseConfig(text, FILE, {}, '/', withProbe)).toEqual({
      ok: false,
      problems: [
        `${FILE}:5:7: notify.receivers[0]: receiver "none" needs one of: webhook, email, alertmanager, log, telegram, slack, discord, pagerduty, teams, matrix, ntfy, gotify, pushover, probe`,
        `${FILE}:7:40: notify.receivers[1].probe.token: must not be empty`,
      ],
    });
  });

  it('is unknown to the daemon\'s own registry', () => {
    expect(parseConfig(config('http://127.0.0.1:9/p'), FILE, {}, '/')).toEqual({
      ok: false,
      problems: [
        `${FILE}:8:7: notify.receivers[0]: receiver "desk" needs one of: webhook, email, alertmanager, log, telegram, slack, discord, pagerduty, teams, matrix, ntfy, gotify, pushover`,
        `${FILE}:9:7: notify.receivers[0]: unknown key "probe" (expected one of: name, send_resolved, webhook, email, alertmanager, log, telegram, slack, discord, pagerduty, teams, matrix, ntfy, gotify, pushover)`,
      ],
    });
  });

  it('has what it declares secret redacted, for display and in logs', () => {
    const redacted = redactConfig(parsed(config('http://user:pw@127.0.0.1:9/p')), withProbe);
    expect(redacted.notify.receivers).toStrictEqual([
      { name: 'desk', send_resolved: true, kind: 'probe', probe: { url: 'http://<redacted>@127.0.0.1:9/p', token: '<redacted>', tag: 'none', timeout: 10_000 } },
    ]);
    // ntfy's token already redacts a bare `token` (listed once, by the first kind that has one).
    expect(withProbe.logRedactPaths().filter((p) => p.includes('probe') || p.endsWith('.token') || p === 'token')).toEqual(['ntfy.token', '*.ntfy.token', 'token', '*.token', 'gotify.token', '*.gotify.token', 'pushover.token', '*.pushover.token', 'probe.url', '*.probe.url', 'probe.token', '*.probe.token']);
  });

  describe('delivery', () => {
    let temp: TempStore;
    let server: WebhookReceiver;
    let dispatcher: Agent;
    let notifications: Notifications | undefined;
    beforeEach(async () => {
      temp = openTempStore('spotwatch-probe-');
      server = await new WebhookReceiver().start();
      dispatcher = new Agent();
    });
    afterEach(async () => {
      await notifications?.stop();
      await server.stop();
      await dispatcher.close();
      temp.close();
    });

    it('reaches a loopback server through the pipeline, the outbox and the retry stage', async () => {
      const outcomes: string[] = [];
      notifications = new Notifications(parsed(config(`${server.url}/probe`)), {
        store: temp.store,
        clock: systemClock,
        random: () => 0.5,
        logger: silentLogger(),
        dispatcher,
        receivers: withProbe,
        externalURL: 'http://sw',
        activeAlerts: () => [],
        onOutcome: (receiver, outcome, reason) => outcomes.push(`${receiver} ${outcome}${reason ? ` ${reason}` : ''}`),
      });
      notifications.start();
      server.replies.push({ status: 503 });
      const now = systemClock.now();
      const alert: Alert = {
        fingerprint: '00000000000000aa', ruleId: 'r', entity: 'e', labels: { alertname: 'W', exchange: 'main', severity: 'critical' },
        annotations: {}, status: 'firing', activeAt: now, startsAt: now, endsAt: null, lastActiveAt: now, lastNotifiedAt: null, value: 1, event: false,
      };
      notifications.insert([alert]);
      const got = await waitFor(() => server.received[0], 'the probe to be told');
      expect(got.path).toBe('/probe');
      expect(got.headers.authorization).toBe('Bearer s3cr3t');
      expect(got.body).toEqual({ receiver: 'desk', tag: 'none', alerts: ['00000000000000aa:firing'] });
      await waitFor(() => notifications?.pendingDeliveries('desk') === 0, 'the outbox to be empty');
      expect(outcomes).toEqual(['desk retry server_error', 'desk success']);
    });
  });
});
