import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Daemon } from '../../src/daemon';
import { spotV3 } from '../../src/exchange/dialects/spot-v3';
import { ExchangeClient } from '../../src/exchange/client';
import type { RunningSimulator } from '../../src/simulator';
import { stack, type Stack } from '../support/daemon-harness';
import { waitFor } from '../support/wait';
import type { WebhookReceiver } from '../support/webhook-receiver';
import { capturedLogger } from '../support/log-capture';

jest.setTimeout(60_000);

const HOSTILE = `<script>alert(1)</script>\r\nX-Injected: yes ${'A'.repeat(100_000 - 60)}`;
const SECRETS = ['tok-9f8e7d6c5b4a', 'hook-secret-1a2b3c', 'smtp-pass-4d5e6f', 'apikey-7g8h9i'];

describe('hostile upstream text and secrets', () => {
  let s: Stack;
  let sim: RunningSimulator;
  let hook: WebhookReceiver;
  let daemon: Daemon;
  let url: string;
  const { logger, lines: logs, text } = capturedLogger('debug');

  beforeAll(async () => {
    s = await stack('rules:\n  - alert: Msg\n    change: [withdraw_desc_set]\n  - alert: W\n    state: withdraw_disabled\n    match: { coin: USDT }\n', {
      coins: 30,
      exchange: `    headers: { X-Api-Key: "${SECRETS[3]}" }\n`,
      server: `{ listen: "127.0.0.1:0", bearer_token: "${SECRETS[0]}" }`,
      extraConfig: 'log: { level: debug }\n',
      receivers: (hookUrl) => `    - name: hook
      webhook: { url: "${hookUrl}/h", secret: "${SECRETS[1]}" }
    - name: mail
      email: { smtp_url: "smtp://user:${SECRETS[2]}@127.0.0.1:1", from: a@example.org, to: [b@example.org], timeout: 500ms }
`,
      logger,
    });
    ({ sim, hook } = s);
    daemon = await s.start();
    url = daemon.url as string;
    sim.control.apply({ action: 'set_network', coin: 'USDT', network: 'Tron(TRC20)', set: { withdrawEnable: false, withdrawDesc: HOSTILE } });
    await waitFor(() => hook.received.length >= 1, 'the webhook');
    // The e-mail receiver cannot connect: its failures are logged too.
    await waitFor(() => text().includes('delivery failed'), 'a failed e-mail attempt in the log');
  });

  afterAll(async () => {
    await s.close();
  });

  it('sends the 100 KB hostile message in the webhook body as data, cut to 1,000 characters and marked, and never in a header', () => {
    const body = hook.received.map((r) => r.body as { alerts: { annotations: Record<string, string> }[] }).flatMap((b) => b.alerts);
    expect(body.some((a) => a.annotations.withdraw_desc === `${HOSTILE.slice(0, 1000)}… [cut 98,983 characters]`)).toBe(true);
    expect(Math.max(...hook.received.map((r) => JSON.stringify(r.body).length))).toBeLessThan(20_000);
    for (const r of hook.received) expect(r.headers['x-injected']).toBeUndefined();
  });

  it('escapes it on the status page', async () => {
    const page = await (await fetch(`${url}/`)).text();
    expect(page).not.toContain('<script>alert(1)');
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('keeps it out of metric labels', async () => {
    const text = await (await fetch(`${url}/metrics`)).text();
    expect(text).not.toContain('<script');
    expect(text).not.toContain('alert(1)');
    expect(text).not.toContain('X-Injected');
  });

  it('keeps every secret out of the logs and the API', async () => {
    const api = [
      await (await fetch(`${url}/api/v1/state`, { headers: { authorization: `Bearer ${SECRETS[0]}` } })).text(),
      await (await fetch(`${url}/api/v1/alerts`, { headers: { authorization: `Bearer ${SECRETS[0]}` } })).text(),
      await (await fetch(`${url}/api/v1/deadletters`, { headers: { authorization: `Bearer ${SECRETS[0]}` } })).text(),
      await (await fetch(`${url}/`)).text(),
    ].join('\n');
    const all = `${text()}\n${api}`;
    expect(logs.length).toBeGreaterThan(5);
    expect(SECRETS.filter((s) => all.includes(s))).toEqual([]);
  });

  it('caps request bodies of the API', async () => {
    const res = await fetch(`${url}/api/v1/silences`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SECRETS[0]}`, 'content-type': 'application/json' },
      body: JSON.stringify({ matchers: { coin: 'X' }, endsAt: '2099-01-01T00:00:00Z', comment: 'x'.repeat(200_000) }),
    });
    expect(res.status).toBe(413);
  });
});

describe('hostile bytes from an exchange', () => {
  it('reads invalid UTF-8 as replacement characters, keeps `__proto__` keys inert, and caps the body', async () => {
    const body = Buffer.concat([
      Buffer.from('[{"coin":"BAD","__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}},"networkList":[{"network":"N","depositEnable":true,"withdrawEnable":false,"withdrawDesc":"caf'),
      Buffer.from([0xc3, 0x28, 0xff]),
      Buffer.from('e"}]}]'),
    ]);
    const server = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const client = new ExchangeClient({ exchange: 'x', dialect: spotV3, baseUrl: base, timeoutMs: 2000, maxBodyBytes: 1 << 20, retries: { max: 0, baseDelayMs: 1, maxDelayMs: 1 }, weightLimit: { max: 1000, windowMs: 1000 } });
    const got = await client.fetchCoins();
    expect(got.records[0]?.networkList[0]?.withdrawDesc).toBe('caf\ufffd(\ufffde');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    const small = new ExchangeClient({ exchange: 'x', dialect: spotV3, baseUrl: base, timeoutMs: 2000, maxBodyBytes: 50, retries: { max: 0, baseDelayMs: 1, maxDelayMs: 1 }, weightLimit: { max: 1000, windowMs: 1000 } });
    await expect(small.fetchCoins()).rejects.toMatchObject({ kind: 'body_too_large' });
    await client.close();
    await small.close();
    await new Promise<void>((r) => server.close(() => r()));
  });
});
