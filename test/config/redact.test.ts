import { parseConfig, redactConfig, type Config } from '../../src/config';

const TEXT = `
exchanges:
  - name: main
    base_url: https://reader:pw@api.example.org/
    headers: { X-Api-Key: k3y, X-Team: ops }
  - name: sim
server: { bearer_token: t0ken }
notify:
  receivers:
    - name: hook
      webhook: { url: "https://u:p@hooks.example.org/x", secret: hm4c, headers: { Authorization: "Bearer abc" } }
    - name: mail
      email: { smtp_url: "smtp://user:pa55@mail.example.org:587", from: a@b.org, to: [c@d.org], username: user, password: pa55 }
    - name: am
      alertmanager: { url: "http://admin:x@127.0.0.1:9093" }
    - name: out
      log: {}
`;

function load(): Config {
  const result = parseConfig(TEXT, 'c.yaml', {}, '/etc/spotwatch');
  if (!result.ok) throw new Error(result.problems.join('\n'));
  return result.config;
}

describe('redactConfig', () => {
  it('replaces every secret and keeps the rest', () => {
    const config = load();
    const redacted = redactConfig(config);
    expect(redacted.server.bearer_token).toBe('<redacted>');
    expect(redacted.exchanges.map((e) => [e.base_url, e.headers])).toEqual([
      ['https://<redacted>@api.example.org/', { 'X-Api-Key': '<redacted>', 'X-Team': '<redacted>' }],
      [undefined, undefined],
    ]);
    expect(redacted.notify.receivers).toEqual([
      {
        name: 'hook',
        send_resolved: true,
        kind: 'webhook',
        webhook: {
          url: 'https://<redacted>@hooks.example.org/x',
          timeout: 10_000,
          secret: '<redacted>',
          headers: { Authorization: '<redacted>' },
          max_alerts: 0,
          max_body_bytes: 1_048_576,
        },
      },
      {
        name: 'mail',
        send_resolved: true,
        kind: 'email',
        email: {
          smtp_url: 'smtp://<redacted>@mail.example.org:587',
          from: 'a@b.org',
          to: ['c@d.org'],
          username: 'user',
          password: '<redacted>',
          timeout: 10_000,
          max_body_bytes: 1_048_576,
        },
      },
      {
        name: 'am',
        send_resolved: true,
        kind: 'alertmanager',
        alertmanager: { url: 'http://<redacted>@127.0.0.1:9093', timeout: 10_000, resend_interval: 60_000, max_body_bytes: 1_048_576 },
      },
      { name: 'out', send_resolved: true, kind: 'log', log: {} },
    ]);
    expect(JSON.stringify(redacted)).not.toMatch(/k3y|t0ken|hm4c|pa55|Bearer abc|reader:pw/);
  });

  it('leaves the original untouched', () => {
    const config = load();
    const before = structuredClone(config);
    redactConfig(config);
    expect(config).toEqual(before);
  });

  it('does not invent secrets that are not set', () => {
    const result = parseConfig('exchanges:\n  - name: main\n', 'c.yaml', {}, '/');
    expect(result.ok && redactConfig(result.config)).toEqual(result.ok && result.config);
  });
});
