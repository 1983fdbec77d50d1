import { gunzipSync } from 'node:zlib';
import { stack, type Stack } from '../support/daemon-harness';
import { waitFor } from '../support/wait';

jest.setTimeout(60_000);

const TOKEN = 's3cret-token-value';

describe('the HTTP surface of a running daemon', () => {
  let s: Stack;
  let url: string;
  const auth = { authorization: `Bearer ${TOKEN}` };

  beforeAll(async () => {
    s = await stack('rules:\n  - alert: WithdrawDisabled\n    state: withdraw_disabled\n    match: { coin: USDT }\n', {
      server: `{ listen: "127.0.0.1:0", bearer_token: "${TOKEN}" }`,
      extraConfig: 'metrics:\n  include: { coin: "USDT|BTC" }\n  exclude: { network: "SOL" }\n',
    });
    url = (await s.start()).url as string;
  });
  afterAll(() => s.close());

  it('requires the bearer token on /api and /-/, and nowhere else', async () => {
    expect((await fetch(`${url}/api/v1/alerts`)).status).toBe(401);
    expect((await fetch(`${url}/api/v1/alerts`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    expect((await fetch(`${url}/-/reload`, { method: 'POST' })).status).toBe(401);
    expect((await fetch(`${url}/api/v1/alerts`, { headers: auth })).status).toBe(200);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    expect((await fetch(`${url}/metrics`)).status).toBe(200);
    const state = await (await fetch(`${url}/api/v1/state`, { headers: auth })).text();
    expect(state).not.toContain(TOKEN);
  });

  it('keeps only the included coins and networks in the per-network series, plain and gzipped alike', async () => {
    const text = await (await fetch(`${url}/metrics`)).text();
    const coins = new Set([...text.matchAll(/^spotwatch_network_withdraw_enabled\{exchange="main",coin="([^"]+)",network="([^"]+)"\}/gm)].map((m) => m[1]));
    expect([...coins].sort()).toEqual(['BTC', 'USDT']);
    expect(text).not.toMatch(/^spotwatch_network_\w+\{[^}]*network="SOL"/m);
    const gz = await fetch(`${url}/metrics`, { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    const raw = Buffer.from(await gz.arrayBuffer());
    // fetch decodes gzip itself; either way the families must match the plain answer.
    const decoded = raw[0] === 0x1f ? gunzipSync(raw).toString() : raw.toString();
    expect(decoded.split('\n').filter((l) => l.startsWith('spotwatch_network_'))).toEqual(text.split('\n').filter((l) => l.startsWith('spotwatch_network_')));
  });

  it('creates, lists and expires silences, and a silence mutes the matching alert', async () => {
    const bad = await fetch(`${url}/api/v1/silences`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{"matchers":[]}' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ status: 'error', error: 'matchers: at least one is required' });
    const endsAt = new Date(Date.now() + 3_600_000).toISOString();
    const created = await fetch(`${url}/api/v1/silences`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ matchers: [{ name: 'coin', value: 'USDT', isRegex: false }], endsAt, comment: 'known', createdBy: 'ops' }),
    });
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { data: { silenceID: string } }).data.silenceID;
    const list = (await (await fetch(`${url}/api/v1/silences`, { headers: auth })).json()) as { data: { id: string; state: string; matchers: unknown; comment: string }[] };
    expect(list.data).toEqual([{ id, matchers: [{ label: 'coin', pattern: '/USDT/' }], startsAt: expect.any(String), endsAt, comment: 'known', createdBy: 'ops', state: 'active' }]);

    s.sim.control.apply({ action: 'set_network', coin: 'USDT', network: 'Tron(TRC20)', set: { withdrawEnable: false } });
    await waitFor(async () => ((await (await fetch(`${url}/api/v1/alerts`, { headers: auth })).json()) as { data: unknown[] }).data.length === 1, 'the alert');
    const polls = async (): Promise<string> => ((await (await fetch(`${url}/api/v1/state`, { headers: auth })).json()) as { data: { exchanges: { polls: { coins: { at: string } } }[] } }).data.exchanges[0]?.polls.coins.at ?? '';
    for (let i = 0; i < 3; i++) {
      const seen = await polls();
      await waitFor(async () => (await polls()) !== seen, 'another poll');
    }
    expect(s.bodies()).toEqual([]);

    expect((await fetch(`${url}/api/v1/silences/${id}`, { method: 'DELETE', headers: auth })).status).toBe(200);
    const after = (await (await fetch(`${url}/api/v1/silences`, { headers: auth })).json()) as { data: { state: string }[] };
    expect(after.data.map((x) => x.state)).toEqual(['expired']);
    await waitFor(() => s.bodies().length === 1, 'the alert once the silence is expired');
    expect(s.bodies()[0]?.alerts[0]?.labels.alertname).toBe('WithdrawDisabled');
    expect((await fetch(`${url}/api/v1/silences/nope`, { method: 'DELETE', headers: auth })).status).toBe(404);
  });

  it('pages the change history and rejects bad filters', async () => {
    expect((await fetch(`${url}/api/v1/changes?kind=nope`, { headers: auth })).status).toBe(400);
    expect((await fetch(`${url}/api/v1/changes?since=yesterday`, { headers: auth })).status).toBe(400);
    const page = (await (await fetch(`${url}/api/v1/changes?limit=1`, { headers: auth })).json()) as { data: { id: number; kind: string }[]; next: string | null };
    expect(page.data).toHaveLength(1);
    expect(page.next).toBe(String(page.data[0]?.id));
  });
});
