import { parseConfig, redactConfig, type Config } from '../../src/config';
import { receiverRegistry } from '../../src/notify/registry';
import { capturedLogger } from '../support/log-capture';

/** The `discord`, `slack` and `pagerduty` blocks as check-config and everything that shows config see them. */
const FILE = 'c.yaml';
const DISCORD_URL = 'https://discord.com/api/webhooks/223704706495545344/3d89bb7572e0fb30d8128367b3b1b44fecd1726de135';
const SLACK_URL = 'https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX';
const KEY = 'e93facc04764012d7bfb002500d5d1a6';

const TEXT = `exchanges:
  - name: main
notify:
  receivers:
    - name: community
      discord: { webhook_url: "\${DISCORD_WEBHOOK}" }
    - name: ops
      slack: { webhook_url: "${SLACK_URL}", alert_template: "{{summary}}" }
    - name: pager
      pagerduty: { routing_key: "\${PD_ROUTING_KEY}", url: "https://u:p@events.example.org/v2/enqueue", events: trigger_only }
    - name: pager2
      pagerduty: { routing_key: "${KEY}" }
`;

function parsed(text: string): Config {
  const result = parseConfig(text, FILE, { DISCORD_WEBHOOK: DISCORD_URL, PD_ROUTING_KEY: KEY }, '/etc/spotwatch');
  if (!result.ok) throw new Error(result.problems.join('\n'));
  return result.config;
}

describe('the chat receivers\' config', () => {
  it('validates the blocks and fills their defaults', () => {
    expect(parsed(TEXT).notify.receivers).toStrictEqual([
      { name: 'community', send_resolved: true, kind: 'discord', discord: { webhook_url: DISCORD_URL, timeout: 10_000 } },
      { name: 'ops', send_resolved: true, kind: 'slack', slack: { webhook_url: SLACK_URL, timeout: 10_000, alert_template: '{{summary}}' } },
      { name: 'pager', send_resolved: true, kind: 'pagerduty', pagerduty: { routing_key: KEY, url: 'https://u:p@events.example.org/v2/enqueue', timeout: 10_000, events: 'trigger_only' } },
      { name: 'pager2', send_resolved: true, kind: 'pagerduty', pagerduty: { routing_key: KEY, url: 'https://events.pagerduty.com/v2/enqueue', timeout: 10_000, events: 'trigger_and_resolve' } },
    ]);
  });

  it('says where a block is wrong, and never quotes a webhook URL or a routing key', () => {
    const text = `exchanges:
  - name: main
notify:
  receivers:
    - name: community
      discord: { webhook_url: "discord.com/api/webhooks/1/s3cr3tt0k3n" }
    - name: ops
      slack: { webhook_url: "ftp://hooks.slack.com/services/s3cr3tt0k3n", colour: red }
    - name: pager
      pagerduty: { routing_key: "s3cr3tt0k3n", events: sometimes }
`;
    const result = parseConfig(text, FILE, {}, '/');
    expect(result).toEqual({
      ok: false,
      problems: [
        `${FILE}:6:31: notify.receivers[0].discord.webhook_url: invalid URL (not shown: it holds a token; use https://HOST/PATH as the service gives it)`,
        `${FILE}:8:29: notify.receivers[1].slack.webhook_url: unsupported URL scheme "ftp" (use https, as the service gives it)`,
        `${FILE}:8:75: notify.receivers[1].slack: unknown key "colour" (expected one of: webhook_url, timeout, text_template, alert_template)`,
        `${FILE}:10:33: notify.receivers[2].pagerduty.routing_key: a routing key has 32 characters (the Integration Key of an "Events API V2" integration)`,
        `${FILE}:10:56: notify.receivers[2].pagerduty.events: expected one of trigger_and_resolve, trigger_only, got "sometimes"`,
      ],
    });
    expect(JSON.stringify(result)).not.toContain('s3cr3tt0k3n');
  });

  it('hides the webhook URLs and the routing key wherever config is shown', () => {
    const receivers = redactConfig(parsed(TEXT)).notify.receivers.map((r) => r[r.kind]);
    expect(receivers).toEqual([
      { webhook_url: '<redacted>', timeout: 10_000 },
      { webhook_url: '<redacted>', timeout: 10_000, alert_template: '{{summary}}' },
      { routing_key: '<redacted>', url: 'https://<redacted>@events.example.org/v2/enqueue', timeout: 10_000, events: 'trigger_only' },
      { routing_key: '<redacted>', url: 'https://events.pagerduty.com/v2/enqueue', timeout: 10_000, events: 'trigger_and_resolve' },
    ]);
  });

  it('keeps them out of log lines, in a receiver block or on their own', () => {
    const { logger, lines, text } = capturedLogger('info', { redact: receiverRegistry.logRedactPaths() });
    for (const receiver of parsed(TEXT).notify.receivers) logger.info({ receiver }, 'configured');
    logger.info({ webhook_url: SLACK_URL, routing_key: KEY }, 'keys on their own');
    expect(lines).toHaveLength(5);
    expect(text()).not.toMatch(/3d89bb75|XXXXXXXX|e93facc0/);
  });
});
