import { stack, type Stack } from '../support/daemon-harness';
import { waitFor } from '../support/wait';

/**
 * The status page whatever the exchange sends, at full size: 4,000 coins (8,378 networks), every
 * withdrawal closed with a hostile message past the cap (made of characters HTML escaping makes
 * longest), a rule whose summary repeats the message, and a few 100 KB messages as sent. The
 * page (every table at its most rows) stays under 1 MB.
 */
jest.setTimeout(120_000);

const RULES = `rules:
  - alert: WithdrawDisabled
    state: withdraw_disabled
    severity: critical
    annotations:
      summary: "{{coin}} withdrawals closed on {{network}}: {{withdraw_desc}}"
  - alert: Message
    change: [withdraw_desc_set]
`;

/** 7 characters that escape to 22 bytes of HTML. */
const HOSTILE = '<b>&\'"€';

describe('the status page with every network closed and every message hostile and huge', () => {
  let s: Stack;
  let networks: { coin: string; network: string }[];
  beforeAll(async () => {
    s = await stack(RULES, { coins: 4000, poll: '{ coins: 1s, tickers: 5s }', exchange: '    max_body_bytes: 64MiB\n' });
    const coins = JSON.parse(await (await fetch(`${s.sim.url}/api/v3/coins`)).text()) as { coin: string; networkList: { network: string }[] }[];
    networks = coins.flatMap((c) => c.networkList.map((n) => ({ coin: c.coin, network: n.network })));
    await s.start();
    s.sim.control.apply(networks.map((n, i) => ({
      action: 'set_network', coin: n.coin, network: n.network,
      set: { withdrawEnable: false, withdrawDesc: `${n.coin} ${HOSTILE.repeat(i < 20 ? 14_000 : 300)}` },
    })));
  });
  afterAll(async () => {
    await s.close();
  });

  it('is under 1 MB with every table at its most rows', async () => {
    const url = s.daemon?.url as string;
    await waitFor(async () => (await (await fetch(`${url}/`)).text()).includes(`closed (${networks.length})</h2>`), 'every network closed on the page', 60_000, 250);
    const started = Date.now();
    const page = Buffer.from(await (await fetch(`${url}/`)).arrayBuffer());
    const took = Date.now() - started;
    const text = page.toString('utf8');
    console.log(`page ${page.length} bytes in ${took} ms; rows ${(text.match(/<tr[ >]/g) ?? []).length}; cards ${(text.match(/<details class="net/g) ?? []).length}`);
    expect(page.length).toBeLessThan(1_000_000);
    // Shown shorter, and said so; whole in the API.
    const shown = Number(/Messages are shown in at most (\d+) characters/.exec(text)?.[1]);
    expect([300, 120, 40]).toContain(shown);
    const cells = [...text.matchAll(/<td class="msg" dir="auto">([^<]*)<\/td>/g)].map((m) => m[1] ?? '');
    expect(cells.length).toBeGreaterThan(500);
    const unescaped = (t: string) => t.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
    expect(Math.max(...cells.map((c) => [...unescaped(c)].length))).toBe(shown);
  });
});
