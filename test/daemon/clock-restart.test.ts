import { stack } from '../support/daemon-harness';
import { waitFor } from '../support/wait';

jest.setTimeout(60_000);

/** The system's clocks, the wall clock moved by `offset` ms (a clock set wrong, or set back). */
function shiftedClock() {
  const c = { offset: 0, now: () => Date.now() + c.offset, monotonic: () => performance.timeOrigin + performance.now() };
  return c;
}

describe('a restart with the wall clock behind the stored state', () => {
  it('tells nothing again: the closure told before the stop is not re-sent', async () => {
    const clock = shiftedClock();
    const rules = 'rules:\n  - alert: Closed\n    state: withdraw_disabled\n    match: { coin: BTC }\n  - alert: Marker\n    state: withdraw_disabled\n    match: { coin: ETH }\n';
    const s = await stack(rules, { coins: 20, deps: { clock } });
    try {
      await s.start();
      s.sim.control.apply({ action: 'set_network', coin: 'BTC', network: 'BTC', set: { withdrawEnable: false } });
      await waitFor(() => s.hook.received.length === 1, 'the closure');
      await s.stop();

      clock.offset = -3_600_000;
      await s.start();
      // Something new after the restart, to know the daemon has polled and flushed since.
      s.sim.control.apply({ action: 'set_network', coin: 'ETH', network: 'ETH', set: { withdrawEnable: false } });
      await waitFor(() => s.bodies().some((b) => b.groupLabels.alertname === 'Marker'), 'the marker closure');
      await s.stop();
      expect(s.bodies().map((b) => b.alerts.map((a) => [a.status, a.labels.alertname, a.labels.coin]))).toEqual([[['firing', 'Closed', 'BTC']], [['firing', 'Marker', 'ETH']]]);
    } finally {
      await s.close();
    }
  });
});
