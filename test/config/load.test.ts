import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadConfigFile, parseConfig, type Config } from '../../src/config';
import { MAX_CONFIG_FILE_BYTES } from '../../src/config/load';
import { dialects } from '../../src/exchange/dialects/registry';

const FILE = 'config/spotwatch.yaml';
const BASE_DIR = '/etc/spotwatch';
const DEMO_SCENARIO = resolve(__dirname, '../../config/scenarios/demo.yaml');
const env = { TOKEN: 's3cret', HOOK_HOST: 'hooks.example.org', EMPTY: '', COINS: '50', HUGE: '1e400' };

function problems(text: string): string[] {
  const result = parseConfig(text, FILE, env, BASE_DIR);
  return result.ok ? [] : result.problems;
}

function config(text: string): Config {
  const result = parseConfig(text, FILE, env, BASE_DIR);
  if (!result.ok) throw new Error(result.problems.join('\n'));
  return result.config;
}

const MINIMAL = 'exchanges:\n  - name: main\n';

/** DESIGN.md section 4, verbatim. */
const DESIGN_EXAMPLE = `exchanges:
  - name: main                      # becomes the \`exchange\` label
    base_url: http://127.0.0.1:8080 # leave out: start the embedded reference exchange
    poll: { coins: 30s, tickers: 10s }
    timeout: 5s
    weight_limit: { max: 500, window: 10s }  # request weight per IP
    symbols: []                     # empty: all symbols
server: { listen: "127.0.0.1:9464" } # /metrics, /healthz, /readyz, /api/v1/*, status page
state_dir: ./data
rules_file: ../alerts.example.yaml  # relative to this file
notify:
  group_by: [exchange, alertname]
  group_wait: 10s
  group_interval: 1m
  repeat_interval: 4h
  receivers:
    - name: hook
      webhook: { url: http://127.0.0.1:9000/hook }
    - name: mail
      email: { smtp_url: smtp://127.0.0.1:2525, from: spotwatch@example.org, to: [ops@example.org] }
`;

const DEFAULT_EXCHANGE = {
  dialect: 'spot-v3',
  poll: { coins: 30_000, tickers: 10_000 },
  timeout: 5_000,
  weight_limit: { max: 500, window: 10_000 },
  symbols: [],
  max_body_bytes: 33_554_432,
  retries: { max: 2, base_delay: 500, max_delay: 10_000 },
  guard: { max_shrink: 0.2, confirm_polls: 5, confirm_for: 120_000 },
  flapping: { enabled: true, window: 21, high_percent: 20, low_percent: 5 },
  notices: { poll: 120_000, unofficial: false, explains_for: 1_209_600_000 },
};

const DEFAULT_NOTIFY = {
  group_by: ['exchange', 'alertname'],
  group_wait: 10_000,
  group_interval: 60_000,
  repeat_interval: 14_400_000,
  receivers: [{ name: 'log', send_resolved: true, kind: 'log', log: {} }],
  routes: [],
  inhibit_rules: [],
  silences: [],
  maintenance: [],
  retry: { base_delay: 1_000, max_delay: 300_000, max_age: 43_200_000 },
};

const DEFAULT_RECORD = { max_size: 1_000_000_000, max_age: 604_800_000 };

describe('parseConfig: valid files', () => {
  it('fills every default around a single exchange', () => {
    expect(config(MINIMAL)).toStrictEqual({
      exchanges: [{ name: 'main', ...DEFAULT_EXCHANGE, simulate: { scenario: DEMO_SCENARIO } }],
      server: { listen: '127.0.0.1:9464' },
      state_dir: './data',
      history_retention: 2_592_000_000,
      log: { level: 'info', format: 'auto' },
      metrics: { include: {}, exclude: {} },
      chains: { aliases: {} },
      notify: DEFAULT_NOTIFY,
      record: DEFAULT_RECORD,
    });
  });

  it('reads the DESIGN.md example', () => {
    expect(config(DESIGN_EXAMPLE)).toStrictEqual({
      exchanges: [{ name: 'main', base_url: 'http://127.0.0.1:8080', ...DEFAULT_EXCHANGE, simulate: undefined }],
      server: { listen: '127.0.0.1:9464' },
      state_dir: './data',
      history_retention: 2_592_000_000,
      rules_file: '/etc/alerts.example.yaml',
      log: { level: 'info', format: 'auto' },
      metrics: { include: {}, exclude: {} },
      chains: { aliases: {} },
      record: DEFAULT_RECORD,
      notify: {
        ...DEFAULT_NOTIFY,
        receivers: [
          {
            name: 'hook',
            send_resolved: true,
            kind: 'webhook',
            webhook: { url: 'http://127.0.0.1:9000/hook', timeout: 10_000, max_alerts: 0, max_body_bytes: 1_048_576 },
          },
          {
            name: 'mail',
            send_resolved: true,
            kind: 'email',
            email: { smtp_url: 'smtp://127.0.0.1:2525', from: 'spotwatch@example.org', to: ['ops@example.org'], timeout: 10_000, max_body_bytes: 1_048_576 },
          },
        ],
      },
    });
  });

  it('reads every option', () => {
    const text = `
exchanges:
  - name: weex.spot
    dialect: spot-v3
    base_url: https://api.example.org
    poll: { coins: 1m, tickers: 2s }
    timeout: 1500ms
    weight_limit: { max: 1200, window: 1m }
    symbols: [BTCUSDT, ETHUSDT]
    max_body_bytes: 512KiB
    retries: { max: 5, base_delay: 0, max_delay: 30s }
    headers: { X-Api-Key: "\${TOKEN}" }
    notices: { poll: 5m, statuspage: "https://status.example.org", unofficial: true, explains_for: 7d }
  - name: sim
    notices: false
    simulate:
      coins: \${COINS}
      seed: 7
      scenario: scenarios/storm.yaml
      listen: "127.0.0.1:8080"
server: { listen: ":9464", bearer_token: "\${TOKEN}" }
state_dir: /var/lib/spotwatch
rules_file: /srv/alerts.yaml
log: { level: debug }
record: { dir: /var/lib/spotwatch/recording, max_size: 2GiB, max_age: 3d }
notify:
  group_by: ["..."]
  group_wait: 0
  group_interval: 5m
  repeat_interval: 1h
  receivers:
    - name: hook
      send_resolved: false
      webhook: { url: "https://\${HOOK_HOST}/x", timeout: 3s, secret: "\${TOKEN}", headers: { X-Team: ops }, max_alerts: 100 }
    - name: mail
      email:
        smtp_url: smtps://user:\${TOKEN}@mail.example.org:465
        from: "Spotwatch <spotwatch@example.org>"
        to: ops@example.org
        subject: "[spotwatch] {{alertname}}"
        username: user
        password_file: secrets/smtp
        require_tls: true
        tls: { reject_unauthorized: false, ca_file: /etc/ssl/ca.pem }
    - name: am
      alertmanager: { url: http://127.0.0.1:9093, resend_interval: 30s }
    - name: console
      log: true
  routes:
    - match: { severity: critical, coin: "/^(BTC|ETH)$/" }
      receivers: [mail, hook]
      continue: true
      group_by: [exchange, coin]
      repeat_interval: 30m
    - receivers: [console]
`;
    expect(config(text)).toStrictEqual({
      exchanges: [
        {
          name: 'weex.spot',
          dialect: 'spot-v3',
          base_url: 'https://api.example.org',
          poll: { coins: 60_000, tickers: 2_000 },
          timeout: 1_500,
          weight_limit: { max: 1_200, window: 60_000 },
          symbols: ['BTCUSDT', 'ETHUSDT'],
          max_body_bytes: 524_288,
          retries: { max: 5, base_delay: 0, max_delay: 30_000 },
          headers: { 'X-Api-Key': 's3cret' },
          guard: { max_shrink: 0.2, confirm_polls: 5, confirm_for: 120_000 },
          flapping: { enabled: true, window: 21, high_percent: 20, low_percent: 5 },
          notices: { poll: 300_000, statuspage: 'https://status.example.org', unofficial: true, explains_for: 604_800_000 },
          simulate: undefined,
        },
        {
          name: 'sim',
          ...DEFAULT_EXCHANGE,
          notices: false,
          simulate: { coins: 50, seed: 7, scenario: '/etc/spotwatch/scenarios/storm.yaml', listen: '127.0.0.1:8080' },
        },
      ],
      server: { listen: ':9464', bearer_token: 's3cret' },
      state_dir: '/var/lib/spotwatch',
      history_retention: 2_592_000_000,
      rules_file: '/srv/alerts.yaml',
      log: { level: 'debug', format: 'auto' },
      metrics: { include: {}, exclude: {} },
      chains: { aliases: {} },
      record: { dir: '/var/lib/spotwatch/recording', max_size: 2_147_483_648, max_age: 259_200_000 },
      notify: {
        group_by: ['...'],
        group_wait: 0,
        group_interval: 300_000,
        repeat_interval: 3_600_000,
        receivers: [
          {
            name: 'hook',
            send_resolved: false,
            kind: 'webhook',
            webhook: { url: 'https://hooks.example.org/x', timeout: 3_000, secret: 's3cret', headers: { 'X-Team': 'ops' }, max_alerts: 100, max_body_bytes: 1_048_576 },
          },
          {
            name: 'mail',
            send_resolved: true,
            kind: 'email',
            email: {
              smtp_url: 'smtps://user:s3cret@mail.example.org:465',
              from: 'Spotwatch <spotwatch@example.org>',
              to: ['ops@example.org'],
              subject: '[spotwatch] {{alertname}}',
              username: 'user',
              password_file: '/etc/spotwatch/secrets/smtp',
              require_tls: true,
              tls: { reject_unauthorized: false, ca_file: '/etc/ssl/ca.pem' },
              timeout: 10_000,
              max_body_bytes: 1_048_576,
            },
          },
          {
            name: 'am',
            send_resolved: true,
            kind: 'alertmanager',
            alertmanager: { url: 'http://127.0.0.1:9093', timeout: 10_000, resend_interval: 30_000, max_body_bytes: 1_048_576 },
          },
          { name: 'console', send_resolved: true, kind: 'log', log: {} },
        ],
        routes: [
          {
            match: { severity: 'critical', coin: '/^(BTC|ETH)$/' },
            receivers: ['mail', 'hook'],
            continue: true,
            group_by: ['exchange', 'coin'],
            repeat_interval: 1_800_000,
          },
          { match: {}, receivers: ['console'], continue: false },
        ],
        inhibit_rules: [],
        silences: [],
        maintenance: [],
        retry: { base_delay: 1_000, max_delay: 300_000, max_age: 43_200_000 },
      },
    });
  });

  it.each([
    ['${VAR}', 'state_dir: "${TOKEN}/data"', 's3cret/data'],
    ['$$ as a literal $', 'state_dir: "/srv/$$HOME/$${TOKEN}"', '/srv/$HOME/${TOKEN}'],
    ['${VAR:-x} for an unset variable', 'state_dir: ${STATE_DIR:-/var/lib/x}', '/var/lib/x'],
    ['${VAR:-x} for an empty variable', 'state_dir: ${EMPTY:-/var/lib/x}', '/var/lib/x'],
    ['${VAR:-x} for a set variable', 'state_dir: ${TOKEN:-/var/lib/x}', 's3cret'],
  ])('expands %s', (_name, line, stateDir) => {
    expect(config(`${MINIMAL}${line}\n`).state_dir).toBe(stateDir);
  });

  it.each([
    ['a sibling file', 'alerts.yaml', '/etc/spotwatch/alerts.yaml'],
    ['a parent directory', '../alerts.example.yaml', '/etc/alerts.example.yaml'],
    ['an absolute path', '/srv/rules.yaml', '/srv/rules.yaml'],
  ])('resolves rules_file in %s against the config file', (_name, written, resolved) => {
    expect(config(`${MINIMAL}rules_file: ${written}\n`).rules_file).toBe(resolved);
  });

  it.each([
    ['1048576', 1_048_576],
    ['512KiB', 524_288],
    ['32MiB', 33_554_432],
    ['"1 GiB"', 1_073_741_824],
    ['10MB', 10_000_000],
  ])('reads max_body_bytes: %s', (written, bytes) => {
    expect(config(`${MINIMAL}    max_body_bytes: ${written}\n`).exchanges[0]?.max_body_bytes).toBe(bytes);
  });

  it('treats an empty base_url as absent: the embedded exchange', () => {
    const exchange = config('exchanges:\n  - name: main\n    base_url: ${EXCHANGE_URL:-}\n').exchanges[0];
    expect(exchange?.base_url).toBeUndefined();
    expect(exchange?.simulate).toStrictEqual({ scenario: DEMO_SCENARIO });
  });

  it.each(['log: {}', 'log: true', 'log:'])('accepts a log receiver written %j', (written) => {
    const receivers = config(`${MINIMAL}notify:\n  receivers:\n    - name: out\n      ${written}\n`).notify.receivers;
    expect(receivers).toStrictEqual([{ name: 'out', send_resolved: true, kind: 'log', log: {} }]);
  });

  it('lets routes name the implicit log receiver', () => {
    const notify = config(`${MINIMAL}notify:\n  routes:\n    - receivers: [log]\n`).notify;
    expect(notify.receivers.map((r) => r.name)).toEqual(['log']);
  });
});

describe('parseConfig: problems', () => {
  it.each([
    ['a YAML syntax error', 'exchanges:\n  - name: main\n   poll: 1s\n', [
      `${FILE}:3:1: YAML syntax error: Sequence item without - indicator`,
    ]],
    ['an unknown top-level key', `${MINIMAL}sever: { listen: ":1" }\n`, [
      `${FILE}:3:1: unknown key "sever" (expected one of: exchanges, server, state_dir, history_retention, rules_file, log, metrics, notify, chains, record)`,
    ]],
    ['an unknown key in an exchange', 'exchanges:\n  - name: main\n    pol: { coins: 30s }\n', [
      `${FILE}:3:5: exchanges[0]: unknown key "pol" (expected one of: name, dialect, base_url, credentials, poll, timeout, weight_limit, symbols, max_body_bytes, retries, headers, simulate, guard, flapping, notices)`,
    ]],
    ['an unknown key deeper down', 'exchanges:\n  - name: main\n    poll: { coins: 30s, ticker: 5s }\n', [
      `${FILE}:3:25: exchanges[0].poll: unknown key "ticker" (expected one of: coins, tickers)`,
    ]],
    ['an unknown key in a receiver kind', `${MINIMAL}notify:\n  receivers:\n    - name: h\n      webhook: { url: "http://h", retries: 3 }\n`, [
      `${FILE}:6:35: notify.receivers[0].webhook: unknown key "retries" (expected one of: url, timeout, secret, headers, max_alerts, max_body_bytes, body_template, content_type)`,
    ]],
    ['a wrong type', 'exchanges:\n  - name: main\n    symbols: BTCUSDT\n', [
      `${FILE}:3:14: exchanges[0].symbols: expected a list, got "BTCUSDT"`,
    ]],
    ['a string for a number', 'exchanges:\n  - name: main\n    weight_limit: { max: lots }\n', [
      `${FILE}:3:26: exchanges[0].weight_limit.max: expected a number, got "lots"`,
    ]],
    ['a bad duration', 'exchanges:\n  - name: main\n    poll: { coins: 30x }\n', [
      `${FILE}:3:20: exchanges[0].poll.coins: invalid duration "30x" (use 500ms, 15s, 5m, 4h)`,
    ]],
    ['a duration without unit', 'exchanges:\n  - name: main\n    timeout: 5\n', [
      `${FILE}:3:14: exchanges[0].timeout: invalid duration 5: a number needs a unit (use 500ms, 15s, 5m, 4h)`,
    ]],
    ['a zero poll interval', 'exchanges:\n  - name: main\n    poll: { tickers: 0 }\n', [
      `${FILE}:3:22: exchanges[0].poll.tickers: must be longer than 0s (use 500ms, 15s, 5m, 4h)`,
    ]],
    ['a bad size', 'exchanges:\n  - name: main\n    max_body_bytes: 32XB\n', [
      `${FILE}:3:21: exchanges[0].max_body_bytes: invalid size "32XB" (use a number of bytes, or 512KiB, 32MiB, 1GB)`,
    ]],
    ['a bad URL', 'exchanges:\n  - name: main\n    base_url: localhost:8080/api\n', [
      `${FILE}:3:15: exchanges[0].base_url: unsupported URL scheme "localhost" (use http or https, e.g. http://HOST:PORT/PATH)`,
    ]],
    ['a URL that does not parse', 'exchanges:\n  - name: main\n    base_url: "http://"\n', [
      `${FILE}:3:15: exchanges[0].base_url: invalid URL "http://" (use http://HOST:PORT/PATH)`,
    ]],
    ['an SMTP URL without its password in the message', `${MINIMAL}notify:\n  receivers:\n    - name: m\n      email: { smtp_url: "mail://u:pw@h:x", from: a@b.org, to: [c@d.org] }\n`, [
      `${FILE}:6:26: notify.receivers[0].email.smtp_url: invalid URL "mail://<redacted>@h:x" (use smtp://HOST:587 or smtps://HOST:465)`,
    ]],
    ['a bad listen address', `${MINIMAL}server: { listen: "9464" }\n`, [
      `${FILE}:3:19: server.listen: invalid listen address "9464" (use HOST:PORT, e.g. 127.0.0.1:9464 or :9464)`,
    ]],
    ['a dialect no registry line names', `${MINIMAL}    dialect: kraken\n`, [
      `${FILE}:3:14: exchanges[0].dialect: expected one of ${dialects.names().join(', ')}, got "kraken"`,
    ]],
    ['a bad log level', `${MINIMAL}log: { level: verbose }\n`, [
      `${FILE}:3:15: log.level: expected one of trace, debug, info, warn, error, got "verbose"`,
    ]],
    ['an empty bearer token', `${MINIMAL}server: { bearer_token: "\${EMPTY}" }\n`, [
      `${FILE}:3:25: server.bearer_token: must not be empty`,
    ]],
    ['missing exchanges', 'server: { listen: ":9464" }\n', [`${FILE}:1:1: missing required key "exchanges"`]],
    ['an empty file', '', [`${FILE}:1:1: expected a map, got an empty value`]],
    ['no exchanges', 'exchanges: []\n', [`${FILE}:1:12: exchanges: needs at least one exchange`]],
    ['an exchange without a name', 'exchanges:\n  - base_url: http://h\n', [`${FILE}:2:5: exchanges[0]: missing required key "name"`]],
    ['a name that is no label value', 'exchanges:\n  - name: "my exchange"\n', [
      `${FILE}:2:11: exchanges[0].name: invalid exchange name "my exchange" (use letters, digits, _, . and -)`,
    ]],
    ['duplicate exchange names', 'exchanges:\n  - name: main\n  - name: main\n', [
      `${FILE}:3:11: exchanges[1].name: duplicate exchange name "main" (first used by exchanges[0])`,
    ]],
    ['duplicate receiver names', `${MINIMAL}notify:\n  receivers:\n    - { name: a, log: true }\n    - { name: a, log: true }\n`, [
      `${FILE}:6:15: notify.receivers[1].name: duplicate receiver name "a" (first used by notify.receivers[0])`,
    ]],
    ['a route naming an unknown receiver', `${MINIMAL}notify:\n  receivers:\n    - { name: a, log: true }\n  routes:\n    - { receivers: [a, pager] }\n`, [
      `${FILE}:7:24: notify.routes[0].receivers[1]: unknown receiver "pager" (known: a)`,
    ]],
    ['a receiver with two kinds, at the second in schema order', `${MINIMAL}notify:\n  receivers:\n    - name: both\n      log: true\n      webhook: { url: "http://h" }\n`, [
      `${FILE}:6:7: notify.receivers[0].log: receiver "both" has both webhook and log; list one receiver per kind`,
    ]],
    ['a receiver with no kind', `${MINIMAL}notify:\n  receivers:\n    - name: none\n`, [
      `${FILE}:5:7: notify.receivers[0]: receiver "none" needs one of: webhook, email, alertmanager, log, telegram, slack, discord, pagerduty, teams, matrix, ntfy, gotify, pushover`,
    ]],
    ['a receiver with two kinds, one of them invalid too', `${MINIMAL}notify:\n  receivers:\n    - name: both\n      webhook: { url: nope }\n      log: true\n`, [
      `${FILE}:6:23: notify.receivers[0].webhook.url: invalid URL "nope" (use http://HOST:PORT/PATH)`,
      `${FILE}:7:7: notify.receivers[0].log: receiver "both" has both webhook and log; list one receiver per kind`,
    ]],
    ['both password and password_file', `${MINIMAL}notify:\n  receivers:\n    - name: m\n      email:\n        smtp_url: smtp://h\n        from: a@b.org\n        to: [c@d.org]\n        password: x\n        password_file: p\n`, [
      `${FILE}:11:9: notify.receivers[0].email.password_file: set password or password_file, not both`,
    ]],
    ['a bad e-mail address', `${MINIMAL}notify:\n  receivers:\n    - name: m\n      email: { smtp_url: smtp://h, from: nobody, to: [c@d.org] }\n`, [
      `${FILE}:6:42: notify.receivers[0].email.from: invalid e-mail address "nobody" (use ops@example.org or "Ops <ops@example.org>")`,
    ]],
    ['an e-mail without recipients', `${MINIMAL}notify:\n  receivers:\n    - name: m\n      email: { smtp_url: smtp://h, from: a@b.org, to: [] }\n`, [
      `${FILE}:6:55: notify.receivers[0].email.to: needs at least 1 entry`,
    ]],
    ['a route with a broken regex', `${MINIMAL}notify:\n  routes:\n    - { match: { coin: "/(BTC/" }, receivers: [log] }\n`, [
      `${FILE}:5:24: notify.routes[0].match.coin: invalid regular expression /(BTC/: missing closing ): \`(BTC\``,
    ]],
    ['a lookahead RE2 cannot run, in an inhibit rule and a silence', `${MINIMAL}notify:\n  inhibit_rules:\n    - source_match: { alertname: "/(?=Ex).*/" }\n      target_match: { network: "!/(a)\\\\1/" }\n`, [
      `${FILE}:5:34: notify.inhibit_rules[0].source_match.alertname: invalid regular expression /(?=Ex).*/: lookahead and lookbehind ((?=, (?!, (?<=, (?<!) are not supported: patterns run on RE2, in linear time`,
      `${FILE}:6:32: notify.inhibit_rules[0].target_match.network: invalid regular expression /(a)\\1/: backreferences (\\1, \\k<name>) are not supported: patterns run on RE2, in linear time`,
    ]],
    ['an empty metrics filter', `${MINIMAL}metrics:\n  include: { coin: "" }\n`, [
      `${FILE}:4:20: metrics.include.coin: empty pattern (a glob like USD*, alternatives like USDT|USDC, or a regular expression /.../; ! in front negates)`,
    ]],
    ['durations past what their use allows', 'exchanges:\n  - name: main\n    poll: { coins: 99999999999d }\n    timeout: 25d\nhistory_retention: 3651d\nnotify:\n  group_interval: 30d\n  repeat_interval: 400d\n  retry: { max_age: 1000d }\n  receivers:\n    - name: hook\n      webhook: { url: "http://127.0.0.1:9/", timeout: 24d1s }\n', [
      `${FILE}:3:20: exchanges[0].poll.coins: must be at most 24d, got "99999999999d"`,
      `${FILE}:4:14: exchanges[0].timeout: must be at most 24d, got "25d"`,
      `${FILE}:5:20: history_retention: must be at most 3650d, got "3651d"`,
      `${FILE}:7:19: notify.group_interval: must be at most 24d, got "30d"`,
      `${FILE}:8:20: notify.repeat_interval: must be at most 365d, got "400d"`,
      `${FILE}:9:21: notify.retry.max_age: must be at most 365d, got "1000d"`,
      `${FILE}:12:55: notify.receivers[0].webhook.timeout: must be at most 24d, got "24d1s"`,
    ]],
    ['recording bounds that are not a size and an age', `${MINIMAL}record: { dir: rec, max_size: 0, max_age: 1w }\n`, [
      `${FILE}:3:31: record.max_size: must be greater than 0`,
      `${FILE}:3:43: record.max_age: invalid duration "1w" (use 500ms, 15s, 5m, 4h)`,
    ]],
    ['retries whose cap is below the base delay', 'exchanges:\n  - name: main\n    retries: { base_delay: 2s, max_delay: 1s }\n', [
      `${FILE}:3:43: exchanges[0].retries.max_delay: must not be shorter than base_delay`,
    ]],
    ['retries past their bound (a failing exchange would look up for hours)', 'exchanges:\n  - name: main\n    retries: { max: 1000000000000 }\n', [
      `${FILE}:3:21: exchanges[0].retries.max: must be at most 10, got 1000000000000`,
    ]],
    ['a simulated market past its bound (it grew by 90 MB/s)', 'exchanges:\n  - name: main\n    simulate: { coins: 999999999 }\n', [
      `${FILE}:3:24: exchanges[0].simulate.coins: must be at most 20000, got 999999999`,
    ]],
    ['numbers that are not finite, written or from the environment', 'exchanges:\n  - name: main\n    guard: { max_shrink: 1e400, confirm_polls: .nan }\n    weight_limit: { max: -.inf }\n    flapping:\n      high_percent: ${HUGE}\n', [
      `${FILE}:3:26: exchanges[0].guard.max_shrink: must be a finite number, got 1e400`,
      `${FILE}:3:48: exchanges[0].guard.confirm_polls: must be a finite number, got .nan`,
      `${FILE}:4:26: exchanges[0].weight_limit.max: must be a finite number, got -.inf`,
      `${FILE}:6:21: exchanges[0].flapping.high_percent: must be a finite number, got \${HUGE}`,
    ]],
    // A recurring maintenance window may mute everything (planned downtime, as Alertmanager's mute_time_intervals): not refused.
    ['silences that would mute every alert', `${MINIMAL}notify:\n  silences:\n    - matchers: { alertname: "/.*/", severity: "*" }\n      starts_at: 2026-11-22T00:00:00Z\n      ends_at: 2026-12-01T00:00:00Z\n    - matchers: {}\n      starts_at: 2026-11-22T00:00:00Z\n      ends_at: 2026-12-01T00:00:00Z\n  maintenance:\n    - { name: all, matchers: { coin: "BTC|" }, start: "02:00", end: "04:00" }\n`, [
      `${FILE}:5:17: notify.silences[0].matchers: at least one matcher must not match the empty string (a silence whose matchers all match every value would mute every alert)`,
      `${FILE}:8:17: notify.silences[1].matchers: at least one matcher is required (a silence without one would mute every alert)`,
    ]],
    ['an unset variable', 'exchanges:\n  - name: main\n    headers: { X-Key: "${API_KEY}" }\n', [
      `${FILE}:3:23: exchanges[0].headers.X-Key: environment variable API_KEY is not set (write \${API_KEY:-default} to give a default)`,
    ]],
    ['a header value with a line break', 'exchanges:\n  - name: main\n    headers: { X-Key: "a\\r\\nX-Evil: 1" }\n', [
      `${FILE}:3:23: exchanges[0].headers.X-Key: header value must not contain line breaks`,
    ]],
  ])('reports %s', (_name, text, expected) => {
    expect(problems(text)).toEqual(expected);
  });

  it('reports every problem of a file together, in file order', () => {
    const text = `exchanges:
  - name: main
    pol: { coins: 30s }
    timeout: 30x
  - name: main
    base_url: \${EXCHANGE_URL}
server: { listen: nowhere }
notify:
  receivers:
    - name: hook
      webhook: { url: "http://h" }
      email: { smtp_url: smtp://h, from: a@b.org, to: [c@d.org] }
  routes:
    - receivers: [pager]
lgo: { level: info }
`;
    expect(problems(text)).toEqual([
      `${FILE}:3:5: exchanges[0]: unknown key "pol" (expected one of: name, dialect, base_url, credentials, poll, timeout, weight_limit, symbols, max_body_bytes, retries, headers, simulate, guard, flapping, notices)`,
      `${FILE}:4:14: exchanges[0].timeout: invalid duration "30x" (use 500ms, 15s, 5m, 4h)`,
      `${FILE}:5:11: exchanges[1].name: duplicate exchange name "main" (first used by exchanges[0])`,
      `${FILE}:6:15: exchanges[1].base_url: environment variable EXCHANGE_URL is not set (write \${EXCHANGE_URL:-default} to give a default)`,
      `${FILE}:7:19: server.listen: invalid listen address "nowhere" (use HOST:PORT, e.g. 127.0.0.1:9464 or :9464)`,
      `${FILE}:12:7: notify.receivers[0].email: receiver "hook" has both webhook and email; list one receiver per kind`,
      `${FILE}:14:19: notify.routes[0].receivers[0]: unknown receiver "pager" (known: hook)`,
      `${FILE}:15:1: unknown key "lgo" (expected one of: exchanges, server, state_dir, history_retention, rules_file, log, metrics, notify, chains, record)`,
    ]);
  });
});

describe('loadConfigFile', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'spotwatch-config-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads a file and resolves paths against its directory', async () => {
    const path = join(dir, 'spotwatch.yaml');
    await writeFile(path, `${MINIMAL}rules_file: alerts.yaml\nstate_dir: \${DATA}\n`);
    await writeFile(join(dir, 'alerts.yaml'), 'rules: []\n');
    const result = await loadConfigFile(path, { DATA: '/tmp/data' });
    expect(result.ok && [result.config.rules_file, result.config.state_dir]).toEqual([join(dir, 'alerts.yaml'), '/tmp/data']);
  });

  it('names the file as given in problems', async () => {
    const path = join(dir, 'bad.yaml');
    await writeFile(path, 'exchanges: []\n');
    expect(await loadConfigFile(path, {})).toEqual({ ok: false, problems: [`${path}:1:12: exchanges: needs at least one exchange`] });
  });

  it('reports a file it cannot read as a problem', async () => {
    const path = join(dir, 'missing.yaml');
    expect(await loadConfigFile(path, {})).toEqual({ ok: false, problems: [`${path}: cannot read: no such file`] });
    expect(await loadConfigFile(dir, {})).toEqual({ ok: false, problems: [`${dir}: cannot read: is a directory`] });
  });

  it('tells a rules_file that cannot be read at its key, with the path it resolved to (it was a raw ENOENT of the rules loader)', async () => {
    const path = join(dir, 'no-rules.yaml');
    await writeFile(path, `${MINIMAL}log: { level: info }\nrules_file: gone/alerts.yaml\n`);
    expect(await loadConfigFile(path, {})).toEqual({ ok: false, problems: [`${path}:4:1: rules_file: cannot read ${join(dir, 'gone/alerts.yaml')}: no such file`] });
    await writeFile(path, `${MINIMAL}rules_file: "."\n`);
    expect(await loadConfigFile(path, {})).toEqual({ ok: false, problems: [`${path}:3:1: rules_file: cannot read ${dir}: not a file`] });
    // replay --rules reads another file: the one the config names need not be there.
    expect((await loadConfigFile(path, {}, undefined, { rulesFile: false })).ok).toBe(true);
  });

  // A 50 MB config took 2.4 GB to parse: the file is refused by its size, as the rules file is.
  it('refuses a file larger than the bound, by its size, without parsing it', async () => {
    const path = join(dir, 'big.yaml');
    await writeFile(path, `${MINIMAL}${'#'.repeat(MAX_CONFIG_FILE_BYTES)}\n`);
    expect(await loadConfigFile(path, {})).toEqual({ ok: false, problems: [`${path}: ${MINIMAL.length + MAX_CONFIG_FILE_BYTES + 1} bytes, a config file may have at most 1048576 (1 MiB)`] });
    await writeFile(path, `${MINIMAL}${'#'.repeat(MAX_CONFIG_FILE_BYTES - MINIMAL.length - 1)}\n`);
    expect((await loadConfigFile(path, {})).ok).toBe(true);
  });
});

describe('chains.aliases', () => {
  test('maps network ids to chains', () => {
    expect(config(`${MINIMAL}chains:\n  aliases: { KSMSM: kusama, "USDT-TRC20": tron }\n`).chains).toEqual({ aliases: { KSMSM: 'kusama', 'USDT-TRC20': 'tron' } });
  });

  test('a chain name is checked with its position', () => {
    expect(problems(`${MINIMAL}chains:\n  aliases: { KSMSM: Kusama }\n`)).toEqual([`${FILE}:4:21: chains.aliases.KSMSM: a chain name is lower-case letters, digits and - (tron, avalanche-c)`]);
  });
});
