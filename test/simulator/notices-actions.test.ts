/**
 * Notice actions in scenarios (errors at FILE:LINE:COL) and on the admin API (the same
 * operations, refused when a window is not in a state they apply to), and the Statuspage the
 * reference exchange serves for every dialect under /-/statuspage.
 */
import { parseScenario, ScenarioError } from '../../src/simulator';
import { get, getJson, postJson, startTestSimulator, T0, type TestSimulator } from '../support/simulator';

function problems(text: string): string[] {
  try {
    parseScenario(text, 'notices.yaml');
  } catch (err) {
    if (err instanceof ScenarioError) return err.problems;
    throw err;
  }
  throw new Error('parsed without problems');
}

describe('notice actions in a scenario', () => {
  it('reads each action with its defaults, times in milliseconds', () => {
    const s = parseScenario([
      'steps:',
      '  - at: 10s',
      '    action: schedule_maintenance',
      '    id: wallet-usdt',
      '    title: USDT wallet maintenance',
      '    begins_in: 1m',
      '    duration: 30m',
      '    scope: funding',
      '    coins: [USDT]',
      '  - at: 20s',
      '    action: reschedule_maintenance',
      '    id: wallet-usdt',
      '    begins_at: 2025-01-01T13:00:00Z',
      '  - at: 30s',
      '    action: announce',
      '    kind: maintenance',
      '    coins: [USDT]',
    ].join('\n'), 'notices.yaml');
    expect(s.steps.map((step) => step.action)).toEqual([
      {
        action: 'schedule_maintenance', id: 'wallet-usdt', title: 'USDT wallet maintenance', begins_in: 60_000, duration: 1_800_000,
        scope: 'funding', origin: 'planned', status: 'maintenance', coins: ['USDT'],
      },
      { action: 'reschedule_maintenance', id: 'wallet-usdt', begins_at: Date.UTC(2025, 0, 1, 13) },
      { action: 'announce', kind: 'maintenance', coins: ['USDT'] },
    ]);
  });

  it('reports every mistake at its line and column', () => {
    const text = [
      'steps:', //                                                   1
      '  - at: 0', //                                                2
      '    action: schedule_maintenance', //                         3
      '    title: Upgrade', //                                       4
      '    scope: wallet', //                                        5
      '    begins_in: 1m', //                                        6
      '    begins_at: 2025-01-01T13:00:00Z', //                      7
      '  - at: 0', //                                                8
      '    action: schedule_maintenance', //                         9
      '    id: "bad id"', //                                         10
      '    title: ""', //                                            11
      '    begins_at: tomorrow', //                                  12
      '    coins: [usdt]', //                                        13
      '  - at: 0', //                                                14
      '    action: reschedule_maintenance', //                       15
      '    id: w1', //                                               16
      '  - at: 0', //                                                17
      '    action: announce', //                                     18
      '    kind: rumour', //                                         19
      '  - at: 0', //                                                20
      '    action: announce', //                                     21
      '    kind: delisting', //                                      22
      '  - at: 0', //                                                23
      '    action: cancel_maintenance', //                           24
      '    id: w1', //                                               25
      '    reason: late', //                                         26
    ].join('\n');
    expect(problems(text)).toEqual([
      'notices.yaml:2:5: steps[0]: missing field "id"',
      'notices.yaml:5:12: steps[0].scope: must be one of: exchange, trading, funding, api, other (got "wallet")',
      'notices.yaml:10:9: steps[1].id: must be 1 to 64 letters, digits, ".", "_" or "-"',
      'notices.yaml:11:12: steps[1].title: must not be empty',
      'notices.yaml:12:16: steps[1].begins_at: must be an RFC 3339 time such as "2025-01-01T13:00:00Z" (got "tomorrow")',
      'notices.yaml:13:13: steps[1].coins[0]: must be 1 to 20 uppercase letters or digits',
      'notices.yaml:14:5: steps[2]: give the new begin: begins_in or begins_at',
      'notices.yaml:19:11: steps[3].kind: must be one of: listing, delisting, maintenance, other (got "rumour")',
      'notices.yaml:20:5: steps[4]: give a `title`, or `coins` to name in one',
      'notices.yaml:26:5: steps[5].reason: unknown field "reason"',
    ]);
  });
});

describe('notice actions: begins_in and begins_at together', () => {
  it('is an error at begins_at', () => {
    expect(problems([
      'steps:',
      '  - at: 0',
      '    action: schedule_maintenance',
      '    id: w1',
      '    title: Upgrade',
      '    begins_in: 1m',
      '    begins_at: 2025-01-01T13:00:00Z',
    ].join('\n'))).toEqual(['notices.yaml:7:16: steps[0].begins_at: give begins_in or begins_at, not both']);
  });
});

describe('notice actions on the admin API', () => {
  let sim: TestSimulator;
  beforeEach(async () => {
    sim = await startTestSimulator({ coins: 40 });
  });
  afterEach(() => sim.close());
  const post = (body: unknown) => postJson(sim.url, '/-/sim/actions', body);
  const refused = (problem: string, applied = 0) => ({ status: 400, json: { error: problem, problems: [problem], applied } });

  it('takes the same operations and shows the windows, their state now, and the status they make', async () => {
    expect(await post([
      { action: 'schedule_maintenance', id: 'w1', title: 'Spot upgrade', begins_in: '10m', duration: '1h' },
      { action: 'announce', kind: 'maintenance', coins: ['USDT'] },
    ])).toEqual({ status: 200, json: { applied: 2 } });
    sim.clock.set(T0 + 10 * 60_000);
    const window = {
      id: 'w1', title: 'Spot upgrade', state: 'ongoing', begins: T0 + 600_000, ends: T0 + 4_200_000, scope: 'exchange', origin: 'planned',
      status: 'maintenance', coins: [], url: null, created: T0, updated: T0, rescheduledFrom: null,
    };
    expect(await getJson(sim.url, '/-/sim/notices')).toEqual({
      now: T0 + 600_000,
      windows: [window],
      announcements: [{ id: 1, kind: 'maintenance', title: 'Suspension of Deposits and Withdrawals of TetherUS (USDT) for Wallet Maintenance', published: T0, url: null, coins: ['USDT'] }],
      status: { state: 'maintenance', window },
    });
  });

  it('refuses an operation a window is not in the state for, and an unknown window', async () => {
    await post({ action: 'schedule_maintenance', id: 'w1', title: 'Spot upgrade', begins_in: '10m' });
    expect(await post({ action: 'complete_maintenance', id: 'w1' })).toEqual(refused('maintenance window "w1" is scheduled: only an ongoing window completes (cancel it instead)'));
    expect(await post({ action: 'schedule_maintenance', id: 'w1', title: 'Again' })).toEqual(refused('maintenance window "w1" is already scheduled; reschedule, complete or cancel it'));
    expect(await post({ action: 'start_maintenance', id: 'w2' })).toEqual(refused('no maintenance window "w2" (there are: w1)'));
    expect(await post({ action: 'start_maintenance', id: 'w1' })).toEqual({ status: 200, json: { applied: 1 } });
    expect(await post({ action: 'cancel_maintenance', id: 'w1' })).toEqual(refused('maintenance window "w1" is ongoing: only a scheduled window is canceled (complete it instead)'));
    expect(await post({ action: 'complete_maintenance', id: 'w1' })).toEqual({ status: 200, json: { applied: 1 } });
    expect(await post({ action: 'reschedule_maintenance', id: 'w1', begins_in: '1h' })).toEqual(refused('maintenance window "w1" is completed: only a scheduled or ongoing window is rescheduled'));
    // Over, the id can name a new window (a looping scenario schedules it every cycle).
    expect(await post({ action: 'schedule_maintenance', id: 'w1', title: 'Next upgrade', begins_in: '1h' })).toEqual({ status: 200, json: { applied: 1 } });
  });

  it('replaces an announcement announced again under its id, so a loop publishes it once', async () => {
    await post({ action: 'announce', id: 5, kind: 'delisting', coins: ['DOGE'] });
    sim.clock.set(T0 + 1000);
    await post({ action: 'announce', id: 5, kind: 'delisting', coins: ['DOGE'] });
    const notices = await getJson<{ announcements: unknown[] }>(sim.url, '/-/sim/notices');
    expect(notices.announcements).toEqual([{ id: 5, kind: 'delisting', title: 'Will Delist Dogecoin (DOGE)', published: T0 + 1000, url: null, coins: ['DOGE'] }]);
  });
});

describe('GET /-/statuspage/api/v2/summary.json', () => {
  let sim: TestSimulator;
  beforeAll(async () => {
    sim = await startTestSimulator({ coins: 40 });
  });
  afterAll(() => sim.close());
  const iso = (ms: number): string => new Date(ms).toISOString();
  const summary = async (): Promise<Record<string, unknown>> => getJson(sim.url, '/-/statuspage/api/v2/summary.json');
  const base = (): string => `${sim.url}/-/statuspage`;
  const component = (id: string, name: string, position: number, status = 'operational') => ({
    id, name, status, created_at: iso(0), updated_at: iso(sim.clock.now()), position, description: null, showcase: false, start_date: null,
    group_id: null, page_id: 'swsim0000001', group: false, only_show_if_degraded: false,
  });
  const services = (funding = 'operational', trading = 'operational') => [
    component('cmp0trading', 'Trading', 1, trading),
    component('cmp0funding', 'Deposits and withdrawals', 2, funding),
    component('cmp0api', 'API', 3),
    component('cmp0website', 'Website and apps', 4),
  ];

  it('says all systems operational with nothing open, on every dialect (spot-v3 here)', async () => {
    expect(await summary()).toEqual({
      page: { id: 'swsim0000001', name: 'Reference exchange (spot-v3)', url: base(), time_zone: 'Etc/UTC', updated_at: iso(T0) },
      components: services(), incidents: [], scheduled_maintenances: [],
      status: { indicator: 'none', description: 'All Systems Operational' },
    });
  });

  it('lists a planned window as a maintenance, scheduled then in progress, gone once completed', async () => {
    await postJson(sim.url, '/-/sim/actions', { action: 'schedule_maintenance', id: 'usdt-wallet', title: 'USDT wallet maintenance', begins_in: '1h', duration: '1h', scope: 'funding', coins: ['USDT'] });
    const maintenance = (status: string, newStatus: string) => ({
      id: 'usdt-wallet', name: 'USDT wallet maintenance', status, created_at: iso(T0), updated_at: iso(T0), monitoring_at: null, resolved_at: null,
      impact: 'maintenance', shortlink: `${base()}/incidents/usdt-wallet`, started_at: iso(T0 + 3_600_000), page_id: 'swsim0000001',
      incident_updates: [{
        id: 'usdt-wallet-u1', status, body: 'USDT wallet maintenance', incident_id: 'usdt-wallet', created_at: iso(T0), updated_at: iso(T0), display_at: iso(T0),
        affected_components: [{ code: 'cmp0coinusdt', name: 'USDT deposits and withdrawals', old_status: 'operational', new_status: newStatus }],
        deliver_notifications: true, custom_tweet: null, tweet_id: null,
      }],
      components: [component('cmp0coinusdt', 'USDT deposits and withdrawals', 1, status === 'in_progress' ? newStatus : 'operational')],
      scheduled_for: iso(T0 + 3_600_000), scheduled_until: iso(T0 + 7_200_000),
    });
    const page = { id: 'swsim0000001', name: 'Reference exchange (spot-v3)', url: base(), time_zone: 'Etc/UTC', updated_at: iso(T0) };
    expect(await summary()).toEqual({
      page,
      components: [...services(), component('cmp0coinusdt', 'USDT deposits and withdrawals', 5)],
      incidents: [], scheduled_maintenances: [maintenance('scheduled', 'under_maintenance')],
      status: { indicator: 'none', description: 'All Systems Operational' },
    });
    sim.clock.set(T0 + 3_600_000);
    expect(await summary()).toEqual({
      page,
      incidents: [],
      components: [...services(), component('cmp0coinusdt', 'USDT deposits and withdrawals', 5, 'under_maintenance')],
      scheduled_maintenances: [maintenance('in_progress', 'under_maintenance')],
      status: { indicator: 'maintenance', description: 'Service Under Maintenance' },
    });
    sim.clock.set(T0 + 7_200_000);
    expect(await summary()).toEqual({ page, components: services(), incidents: [], scheduled_maintenances: [], status: { indicator: 'none', description: 'All Systems Operational' } });
  });

  it('lists an unplanned window as an incident while it is ongoing', async () => {
    await postJson(sim.url, '/-/sim/actions', { action: 'schedule_maintenance', id: 'outage', title: 'Trading engine outage', scope: 'trading', origin: 'incident' });
    const s = await summary();
    expect(s.incidents).toEqual([{
      id: 'outage', name: 'Trading engine outage', status: 'investigating', created_at: iso(T0 + 7_200_000), updated_at: iso(T0 + 7_200_000),
      monitoring_at: null, resolved_at: null, impact: 'major', shortlink: `${base()}/incidents/outage`, started_at: iso(T0 + 7_200_000), page_id: 'swsim0000001',
      incident_updates: [{
        id: 'outage-u1', status: 'investigating', body: 'Trading engine outage', incident_id: 'outage', created_at: iso(T0 + 7_200_000),
        updated_at: iso(T0 + 7_200_000), display_at: iso(T0 + 7_200_000),
        affected_components: [{ code: 'cmp0trading', name: 'Trading', old_status: 'operational', new_status: 'major_outage' }],
        deliver_notifications: true, custom_tweet: null, tweet_id: null,
      }],
      components: [component('cmp0trading', 'Trading', 1, 'major_outage')],
    }]);
    expect(s.status).toEqual({ indicator: 'major', description: 'Partial System Outage' });
    expect(s.components).toEqual(services('operational', 'major_outage'));
    expect((await get(sim.url, '/-/statuspage/api/v2/incidents.json')).status).toBe(404);
  });
});
