import { stack, type Stack } from '../support/daemon-harness';
import { waitFor } from '../support/wait';

jest.setTimeout(60_000);

describe('the status page of a running daemon', () => {
  let s: Stack;
  let url: string;
  beforeAll(async () => {
    s = await stack('rules:\n  - alert: WithdrawDisabled\n    state: withdraw_disabled\n    match: { coin: USDT }\n    severity: critical\n');
    url = (await s.start()).url as string;
  });
  afterAll(() => s.close());

  it('shows when a network closed while the page was being read: the time of its change, kept without a query per network', async () => {
    const page = async (): Promise<string> => (await fetch(`${url}/`)).text();
    const closedBefore = /Networks with deposits or withdrawals closed \((\d+)\)/.exec(await page())?.[1];
    s.sim.control.apply({ action: 'set_network', coin: 'USDT', network: 'Tron(TRC20)', set: { withdrawEnable: false, withdrawDesc: 'wallet upgrade' } });
    type Changes = { data: { at: string; coin: string; network: string }[] };
    const change = await waitFor(async () => ((await (await fetch(`${url}/api/v1/changes?kind=withdraw_disabled&coin=USDT`)).json()) as Changes).data[0], 'the change');
    const at = change.at.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
    const text = await waitFor(async () => {
      const p = await page();
      return p.includes('Alerts firing (1)') ? p : undefined;
    }, 'the alert on the page');
    expect(text).toContain(`Networks with deposits or withdrawals closed (${Number(closedBefore) + 1})`);
    // The newest closure comes first.
    const first = /<h2 id="disabled">[^]*?<tbody>\n<tr data-k="main usdt tron\(trc20\) [^"]*">(.*?<\/tr>)/.exec(text)?.[1];
    expect(first).toBe(`<td>main</td><td>USDT</td><td>Tron(TRC20)</td><td class="ok">open</td><td class="bad">closed</td><td>${at}</td><td class="msg" dir="auto">wallet upgrade</td></tr>`);
    expect(text).not.toContain('class="more"');
  });
});
