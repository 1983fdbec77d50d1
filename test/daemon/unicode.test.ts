import { stack, type Stack } from '../support/daemon-harness';
import { waitFor } from '../support/wait';
import { chatDoubles } from '../notify/chat-fixtures';

/**
 * A lone surrogate from an exchange (`"x\ud800"`, a JSON escape that JSON.parse accepts) leaves
 * spotwatch only as well-formed text: U+FFFD, in /api/v1/state and in the Slack and Discord
 * bodies, which strict parsers (serde_json, Go's encoding/json with its own check, a fatal
 * UTF-8 decoder) would otherwise refuse.
 */
jest.setTimeout(60_000);

const RULES = 'rules:\n  - alert: WithdrawDisabled\n    state: withdraw_disabled\n    match: { coin: USDT }\n    severity: critical\n';

/** A JSON escape of a surrogate: JSON.stringify writes one only for a lone surrogate. */
const SURROGATE_ESCAPE = /\\u[dD][89abcdefABCDEF][0-9a-fA-F]{2}/;

/** `bytes` as strict readers read them: valid UTF-8, JSON with no lone surrogate in any string. */
function strictJson(bytes: Uint8Array): unknown {
  const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  expect(text).not.toMatch(SURROGATE_ESCAPE);
  const value = JSON.parse(text) as unknown;
  const texts: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') texts.push(v);
    else if (typeof v === 'object' && v !== null) for (const [k, w] of Object.entries(v)) { texts.push(k); walk(w); }
  };
  walk(value);
  expect(texts.filter((t) => !t.isWellFormed())).toEqual([]);
  return value;
}

describe('a lone surrogate from the exchange', () => {
  let s: Stack;
  let doubles: Awaited<ReturnType<typeof chatDoubles>>;
  beforeAll(async () => {
    doubles = await chatDoubles();
    const { discord, slack } = doubles;
    s = await stack(RULES, {
      coins: 20,
      receivers: () => `    - name: community
      discord: { webhook_url: "${discord.webhookUrl}" }
    - name: ops
      slack: { webhook_url: "${slack.webhookUrl}" }
`,
    });
    await s.start();
    s.sim.control.apply({ action: 'set_network', coin: 'USDT', network: 'Tron(TRC20)', set: { withdrawEnable: false, withdrawDesc: 'x\ud800' } });
    await waitFor(() => doubles.discord.requests.length > 0 && doubles.slack.requests.length > 0, 'Discord and Slack to be told');
  });
  afterAll(async () => {
    await s.close();
    await doubles.stop();
  });

  it('is U+FFFD in /api/v1/state, which is valid UTF-8 JSON', async () => {
    const res = await fetch(`${s.daemon?.url}/api/v1/state`);
    const body = new Uint8Array(await res.arrayBuffer());
    strictJson(body);
    expect(new TextDecoder().decode(body)).toContain('"withdrawDesc":"x\ufffd"');
  });

  it.each(['slack', 'discord'] as const)('is U+FFFD in the %s body', (service) => {
    const raw = doubles[service].requests.map((r) => r.raw);
    for (const body of raw) strictJson(Buffer.from(body, 'utf8'));
    expect(raw.some((r) => r.includes('x\ufffd'))).toBe(true);
  });
});
