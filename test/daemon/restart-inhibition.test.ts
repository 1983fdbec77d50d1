import { stack } from '../support/daemon-harness';
import { waitFor } from '../support/wait';

jest.setTimeout(60_000);

const RULES = 'rules:\n  - alert: Source\n    state: withdraw_disabled\n    match: { coin: BTC, network: BTC }\n  - alert: Target\n    state: withdraw_disabled\n    match: { coin: ETH, network: ETH }\n';
/** The notify keys after the receivers: Source inhibits Target at the same exchange. */
const receivers = (url: string): string => `    - name: hook
      webhook: { url: "${url}/hook" }
  inhibit_rules:
    - source_match: { alertname: Source }
      target_match: { alertname: Target }
      equal: [exchange]
`;

describe('an alert inhibited when the daemon stopped', () => {
  it('stays inhibited through the restart: the groups that flush at once at a start see the alerts the store kept as sources', async () => {
    const s = await stack(RULES, { coins: 20, poll: '{ coins: 150ms, tickers: 1s }', receivers });
    try {
      await s.start();
      s.sim.control.apply([
        { action: 'set_network', coin: 'BTC', network: 'BTC', set: { withdrawEnable: false } },
        { action: 'set_network', coin: 'ETH', network: 'ETH', set: { withdrawEnable: false } },
      ]);
      await waitFor(() => s.bodies().some((b) => b.groupLabels.alertname === 'Source'), 'the source told');
      // Both fire; only the inhibition keeps Target from the receiver.
      const firing = async (): Promise<string[]> => {
        const { data } = (await (await fetch(`${s.daemon?.url}/api/v1/alerts`)).json()) as { data: { status: string; labels: Record<string, string> }[] };
        return data.filter((a) => a.status === 'firing').map((a) => a.labels.alertname ?? '').sort();
      };
      await waitFor(async () => (await firing()).includes('Target'), 'Target firing');
      expect(await firing()).toEqual(['Source', 'Target']);
      await s.stop();
      const told = (): string[][] => s.bodies().map((b) => b.alerts.map((a) => `${a.status} ${a.labels.alertname}`));
      expect(told()).toEqual([['firing Source']]);

      // group_wait 0s: the restored groups flush in the start itself, before the first poll.
      await s.start();
      await waitFor(async () => {
        const text = await (await fetch(`${s.daemon?.url}/metrics`)).text();
        return Number(/spotwatch_poll_duration_seconds_count\{exchange="main",endpoint="coins"\} (\d+)/.exec(text)?.[1] ?? 0) >= 5;
      }, 'five polls after the restart');
      await s.stop();
      expect(told()).toEqual([['firing Source']]);
    } finally {
      await s.close();
    }
  });
});
