import type { Clock } from '../../src/lib/clock';
import { stack, type Stack } from '../support/daemon-harness';
import { waitFor } from '../support/wait';

jest.setTimeout(60_000);

const S = 1000;
const H = 3_600_000;

/**
 * The system's clocks, moved by hand on top: `advance` lets time pass (both clocks), `step` moves
 * the wall clock alone (an NTP correction, a VM resumed, a wrong clock fixed).
 */
function movedClock(): Clock & { advance(ms: number): void; step(ms: number): void } {
  let wall = 0;
  let mono = 0;
  return {
    now: () => Date.now() + wall,
    monotonic: () => performance.timeOrigin + performance.now() + mono,
    advance(ms) {
      wall += ms;
      mono += ms;
    },
    step(ms) {
      wall += ms;
    },
  };
}

interface OutageView {
  coin: string;
  network: string;
  direction: string;
  from: string;
  to: string | null;
  duration_seconds: number | null;
}

async function json<T>(url: string): Promise<T> {
  return (await (await fetch(url)).json()) as T;
}

async function outages(url: string): Promise<OutageView[]> {
  return (await json<{ outages: OutageView[] }>(`${url}/api/v1/outages?coin=BTC&network=BTC`)).outages;
}

/** When the exchange's coins were last polled (/api/v1/state). */
async function polled(url: string): Promise<string | undefined> {
  return (await json<{ data: { exchanges: { polls: { coins?: { at: string } } }[] } }>(`${url}/api/v1/state`)).data.exchanges[0]?.polls.coins?.at;
}

const RULES = 'rules:\n  - alert: Closed\n    state: withdraw_disabled\n    match: { coin: BTC, network: BTC }\n';

describe('durations across a step of the wall clock (the daemon, its clock injected)', () => {
  let s: Stack;
  afterEach(async () => s.close());

  it.each([
    ['forward', H, 8 * S],
    ['back', -H, 5 * S],
  ])('stepped %s an hour during a closure: the stored outage, the alert and the availability say how long it lasted', async (_way, stepMs, lastedMs) => {
    const clock = movedClock();
    s = await stack(RULES, { coins: 20, deps: { clock } });
    const url = (await s.start()).url as string;
    s.sim.control.apply({ action: 'set_network', coin: 'BTC', network: 'BTC', set: { withdrawEnable: false } });
    await waitFor(async () => (await outages(url)).length === 1, 'the outage');
    await waitFor(() => s.bodies().some((b) => b.alerts.some((a) => a.status === 'firing')), 'the closure told');

    clock.advance(lastedMs);
    clock.step(stepMs);
    // Still closed: the outage so far, to now.
    const ongoing = (await outages(url))[0] as OutageView;
    expect(ongoing.to).toBeNull();
    expect(ongoing.duration_seconds).toBeGreaterThanOrEqual(lastedMs / S);
    expect(ongoing.duration_seconds).toBeLessThan(lastedMs / S + 4);

    s.sim.control.apply({ action: 'set_network', coin: 'BTC', network: 'BTC', set: { withdrawEnable: true } });
    await waitFor(async () => (await outages(url))[0]?.to !== null, 'the reopening');
    await waitFor(() => s.bodies().some((b) => b.alerts.some((a) => a.status === 'resolved')), 'the reopening told');

    const stored = (await outages(url))[0] as OutageView;
    expect([stored.direction, stored.from <= (stored.to as string)]).toEqual(['withdraw', true]);
    // What passed (lastedMs, and the few polls around it): not an hour more, nor nothing.
    expect(stored.duration_seconds).toBeGreaterThanOrEqual(lastedMs / S);
    expect(stored.duration_seconds).toBeLessThan(lastedMs / S + 4);
    expect(Date.parse(stored.to as string) - Date.parse(stored.from)).toBe(Math.round((stored.duration_seconds as number) * S));

    const resolved = s.bodies().flatMap((b) => b.alerts).find((a) => a.status === 'resolved');
    const alertMs = Date.parse(resolved?.endsAt ?? '') - Date.parse(resolved?.startsAt ?? '');
    expect(alertMs).toBeGreaterThanOrEqual(lastedMs);
    expect(alertMs).toBeLessThan(lastedMs + 4 * S);

    const avail = await json<{ networks: { coin: string; network: string; withdraw: { outages: number; mttr_seconds: number | null } }[] }>(`${url}/api/v1/availability?window=1d&coin=BTC&network=BTC`);
    expect(avail.networks.map((n) => [n.coin, n.network, n.withdraw.outages, n.withdraw.mttr_seconds])).toEqual([['BTC', 'BTC', 1, stored.duration_seconds]]);
  });

  it('stepped forward an hour while pending: `for` counts the time that passed, not the step', async () => {
    const clock = movedClock();
    s = await stack('rules:\n  - alert: Closed\n    state: withdraw_disabled\n    for: 30m\n    match: { coin: BTC, network: BTC }\n', { coins: 20, deps: { clock } });
    const url = (await s.start()).url as string;
    type Alerts = { data: { status: string; labels: Record<string, string> }[] };
    const closed = async (): Promise<string[]> => (await json<Alerts>(`${url}/api/v1/alerts`)).data.filter((a) => a.labels.alertname === 'Closed').map((a) => a.status);
    s.sim.control.apply({ action: 'set_network', coin: 'BTC', network: 'BTC', set: { withdrawEnable: false } });
    await waitFor(async () => (await closed()).includes('pending'), 'the closure pending');
    clock.step(H);
    // A few coin polls after the step: still pending (an hour of wall clock is not 30 minutes passed).
    for (let i = 0; i < 3; i++) {
      const seen = await polled(url);
      await waitFor(async () => (await polled(url)) !== seen, 'a coin poll');
    }
    expect(await closed()).toEqual(['pending']);
    clock.advance(30 * 60 * S);
    await waitFor(async () => (await closed()).includes('firing'), 'the closure firing after 30 minutes passed');
  });

  it('stepped forward an hour during a closure: the daily digest says how long it has been closed, not an hour more', async () => {
    const clock = movedClock();
    // The digest a few minutes on (UTC), reached by letting that time pass on both clocks.
    const digestAt = (Math.floor(Date.now() / 60_000) + 3) * 60_000;
    const hhmm = new Date(digestAt).toISOString().slice(11, 16);
    s = await stack(RULES, {
      coins: 20,
      deps: { clock },
      receivers: (hookUrl) => `    - name: hook\n      webhook: { url: "${hookUrl}/hook" }\n  digest: { at: "${hhmm}", timezone: UTC, receivers: [hook] }\n`,
    });
    const url = (await s.start()).url as string;
    s.sim.control.apply({ action: 'set_network', coin: 'BTC', network: 'BTC', set: { withdrawEnable: false } });
    await waitFor(async () => (await outages(url)).length === 1, 'the outage');
    const from = Date.parse((await outages(url))[0]?.from ?? '');

    clock.step(H);
    clock.advance(digestAt - Date.now() + S);
    // The digest is looked at every 10 s.
    const digest = await waitFor(() => s.bodies().find((b) => b.groupKey.includes('digest=')), 'the digest', 20_000);
    const lines = (digest.alerts[0]?.annotations.description ?? '').split('\n').filter((l) => l.includes('BTC on BTC'));
    const since = new Date(from).toISOString().replace(/\.000Z$/, 'Z');
    const spanOf = (line: string | undefined): string | undefined => /\(([^)]*)\)$/.exec(line ?? '')?.[1];
    expect(lines.map((l) => l.replace(/ \([^)]*\)$/, ''))).toEqual([`- main BTC on BTC: withdrawals closed since ${since}`, `- main BTC on BTC: withdrawals ${since} to now`]);
    // About three minutes passed (the digest's minute, less when it closed, plus the 10 s of a check): never an hour more.
    for (const line of lines) expect(spanOf(line)).toMatch(/^[1-4]m( \d+s)?$/);
  });
});
