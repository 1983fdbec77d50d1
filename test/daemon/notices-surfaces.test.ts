/**
 * Notices on the daemon's surfaces (notices.md section 5): the reference exchange speaking Bybit
 * publishes a maintenance window (its own and its Statuspage's) and an announcement; the daemon
 * shows them in GET /api/v1/notices, counts them in /metrics, has an entry for each in the
 * Atom feed, and shows them in the status page's banner.
 */
import { waitFor } from '../support/wait';
import { child, childrenNamed, parseXml } from '../support/xml';
import { dialectStack, exchange, type DialectStack } from './dialects-stack';

jest.setTimeout(60_000);

let s: DialectStack;
beforeAll(async () => {
  // `bad` names a Statuspage that is not there: each of its reads fails (HTTP 404).
  s = await dialectStack(
    'bybit',
    'rules: []\n',
    (sim) =>
      `${exchange('ex', 'bybit', sim.url)}    notices: { poll: 200ms, statuspage: ${sim.url}/-/statuspage }\n` +
      `${exchange('bad', 'bybit', sim.url, { tickers: '1s' })}    notices: { poll: 200ms, statuspage: ${sim.url}/-/no-statuspage }\n`,
  );
});
afterAll(() => s.close());

async function act(actions: unknown[]): Promise<void> {
  const res = await fetch(`${s.sim.url}/-/sim/actions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(actions) });
  expect(res.status).toBe(200);
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
type Notices = { status: unknown[]; maintenance: { id: string; source: string }[]; announcements: { id: string }[] };
const notices = async (query = ''): Promise<Notices> => (await (await fetch(`${s.url}/api/v1/notices?exchange=ex${query}`)).json()) as Notices;

it('shows a window and an announcement in GET /api/v1/notices, exactly as the exchange published them', async () => {
  await act([
    { action: 'schedule_maintenance', id: 'w1', title: 'Tether (USDT) wallet maintenance', begins_at: '2030-01-02T03:00:00Z', duration: '90m', scope: 'funding', coins: ['USDT'], url: 'https://status.test/w1' },
    { action: 'announce', id: 7, kind: 'delisting', title: 'Will Delist Tether (USDT) & <ETH>', url: 'https://ann.test/7' },
  ]);
  await waitFor(async () => { const n = await notices(); return n.maintenance.length >= 2 && n.announcements.length >= 1; }, 'the window and the announcement read');
  const sim = (await (await fetch(`${s.sim.url}/-/sim/notices`)).json()) as { announcements: { id: number; published: number }[] };
  const published = new Date(sim.announcements.find((a) => a.id === 7)!.published).toISOString();
  const window = {
    exchange: 'ex', id: 'w1', title: 'Tether (USDT) wallet maintenance', state: 'scheduled', begins: '2030-01-02T03:00:00.000Z', ends: '2030-01-02T04:30:00.000Z',
    origin: 'planned', coins: ['USDT'], symbols: [], url: 'https://status.test/w1',
  };
  const announcement = {
    exchange: 'ex', id: 'https://ann.test/7', kind: 'delisting', title: 'Will Delist Tether (USDT) & <ETH>', url: 'https://ann.test/7', published,
    coins: ['USDT'], symbols: [], chains: [], source: 'bybit-announcements',
  };
  // Bybit's own list has no code for funding (its serviceTypes are products): its title says so, as the Statuspage's component does.
  expect(await notices()).toEqual({
    status: [{ exchange: 'ex', state: 'normal', message: null, since: expect.stringMatching(RFC3339), checked: expect.stringMatching(RFC3339) }],
    maintenance: [{ ...window, scope: 'funding', source: 'bybit-status' }, { ...window, scope: 'funding', source: 'statuspage' }],
    announcements: [announcement],
  });
  expect(await notices('&kind=maintenance&coin=USDT&since=2030-01-02T03:00:00Z&limit=1')).toEqual({ status: [], maintenance: [{ ...window, scope: 'funding', source: 'bybit-status' }], announcements: [] });
  expect(await notices('&kind=announcement&coin=ETH')).toEqual({ status: [], maintenance: [], announcements: [] });
  const bad = await fetch(`${s.url}/api/v1/notices?since=soon`);
  expect([bad.status, await bad.json()]).toEqual([400, { status: 'error', error: 'since: use RFC 3339 or milliseconds since the epoch' }]);
});

/** The lines of /metrics of the given families (their samples, without HELP and TYPE). */
async function metricLines(...families: string[]): Promise<string[]> {
  const text = await (await fetch(`${s.url}/metrics`)).text();
  return text.split('\n').filter((l) => families.some((f) => l.startsWith(`${f}{exchange="ex"`)));
}

it('counts the exchange\'s status, its windows by state, the announcements read and the failed reads of each source in /metrics', async () => {
  // One window, told by Bybit's list and by the Statuspage: counted once.
  await waitFor(async () => (await notices('&kind=maintenance')).maintenance.length === 2, 'both sources read');
  await waitFor(async () => (await metricLines('spotwatch_maintenance_windows')).includes('spotwatch_maintenance_windows{exchange="ex",state="scheduled"} 1'), 'the window counted');
  expect(await metricLines('spotwatch_exchange_status', 'spotwatch_maintenance_windows', 'spotwatch_announcements_total')).toEqual([
    'spotwatch_exchange_status{exchange="ex",state="normal"} 1',
    'spotwatch_exchange_status{exchange="ex",state="maintenance"} 0',
    'spotwatch_exchange_status{exchange="ex",state="cancel_only"} 0',
    'spotwatch_exchange_status{exchange="ex",state="post_only"} 0',
    'spotwatch_maintenance_windows{exchange="ex",state="scheduled"} 1',
    'spotwatch_maintenance_windows{exchange="ex",state="ongoing"} 0',
    'spotwatch_maintenance_windows{exchange="ex",state="completed"} 0',
    'spotwatch_maintenance_windows{exchange="ex",state="canceled"} 0',
    'spotwatch_announcements_total{exchange="ex",kind="listing"} 0',
    'spotwatch_announcements_total{exchange="ex",kind="delisting"} 1',
    'spotwatch_announcements_total{exchange="ex",kind="maintenance"} 0',
    'spotwatch_announcements_total{exchange="ex",kind="other"} 0',
  ]);
  const errors = await metricLines('spotwatch_notice_errors_total');
  // Every kind of each of its three sources, at zero.
  expect(errors.length).toBe(21);
  expect(errors.filter((l) => !l.endsWith(' 0'))).toEqual([]);
  expect(errors.slice(0, 2)).toEqual(['spotwatch_notice_errors_total{exchange="ex",source="bybit-status",kind="error_answer"} 0', 'spotwatch_notice_errors_total{exchange="ex",source="bybit-status",kind="http"} 0']);

  // The window starts: ongoing in both lists; a funding window leaves the exchange normal.
  await act([{ action: 'start_maintenance', id: 'w1' }]);
  await waitFor(async () => (await metricLines('spotwatch_maintenance_windows')).includes('spotwatch_maintenance_windows{exchange="ex",state="ongoing"} 1'), 'the window ongoing');
  expect(await metricLines('spotwatch_exchange_status')).toContain('spotwatch_exchange_status{exchange="ex",state="normal"} 1');
  // A trading window ongoing: Bybit's status is maintenance.
  await act([{ action: 'schedule_maintenance', id: 'w2', title: 'System upgrade', scope: 'trading' }]);
  await waitFor(async () => (await metricLines('spotwatch_exchange_status')).includes('spotwatch_exchange_status{exchange="ex",state="maintenance"} 1'), 'the exchange in maintenance');
  expect(await metricLines('spotwatch_exchange_status')).toEqual([
    'spotwatch_exchange_status{exchange="ex",state="normal"} 0',
    'spotwatch_exchange_status{exchange="ex",state="maintenance"} 1',
    'spotwatch_exchange_status{exchange="ex",state="cancel_only"} 0',
    'spotwatch_exchange_status{exchange="ex",state="post_only"} 0',
  ]);
});

it('counts each failed read of a notice source by source and kind, and nothing else changes', async () => {
  const failed = async (): Promise<number> => {
    const text = await (await fetch(`${s.url}/metrics`)).text();
    return Number(/^spotwatch_notice_errors_total\{exchange="bad",source="statuspage",kind="http"\} (\d+)$/m.exec(text)?.[1] ?? NaN);
  };
  await waitFor(async () => (await failed()) >= 2, 'two failed reads counted');
  const text = await (await fetch(`${s.url}/metrics`)).text();
  expect(text.split('\n').filter((l) => l.startsWith('spotwatch_notice_errors_total{exchange="bad"') && !l.endsWith(' 0') && !l.includes('source="statuspage",kind="http"'))).toEqual([]);
  expect(text).toContain('spotwatch_up{exchange="bad"} 1');
});

it('has an entry per announcement and per maintenance window in the Atom feed, escaped', async () => {
  const feed = async (q: string) => parseXml(await (await fetch(`${s.url}/feed.atom${q}`)).text());
  const entry = (e: ReturnType<typeof parseXml>) => [child(e, 'id').text, child(e, 'title').text, child(e, 'category').attrs.term, childrenNamed(e, 'link').map((l) => l.attrs.href), child(e, 'summary').text];
  const announcements = childrenNamed(await feed('?exchange=ex&kind=announcement'), 'entry');
  const { published } = (await notices('&kind=announcement')).announcements[0] as unknown as { published: string };
  expect(announcements.map(entry)).toEqual([
    [
      'tag:spotwatch,2024:announcement:ex:https%3A%2F%2Fann.test%2F7', 'ex: Will Delist Tether (USDT) & <ETH>', 'announcement', ['https://ann.test/7'],
      `delisting announcement (ex, published ${published}; coins USDT)`,
    ],
  ]);
  expect(child(announcements[0]!, 'updated').text).toBe(published);
  // The windows as the API shows them (its times checked above), one entry each, newest begin first.
  type W = { id: string; title: string; state: string; origin: string; scope: string; begins: string; ends: string | null; url: string | null; source: string; coins: string[] };
  const known = (await notices('&kind=maintenance')).maintenance as unknown as W[];
  expect(known.map((w) => `${w.id}/${w.source}`)).toEqual(['w2/bybit-status', 'w2/statuspage', 'w1/bybit-status', 'w1/statuspage']);
  const windows = childrenNamed(await feed('?exchange=ex&kind=maintenance'), 'entry');
  expect(windows.map(entry)).toEqual(
    known.map((w) => [
      `tag:spotwatch,2024:maintenance:ex:${w.source}:${w.id}`,
      `ex: ${w.title} (maintenance ongoing)`,
      'maintenance',
      w.url === null ? [] : [w.url],
      `maintenance ongoing, planned, scope ${w.scope}: begins ${w.begins}, ends ${w.ends ?? 'unknown'} (ex, ${w.source}${w.coins.length > 0 ? `; coins ${w.coins.join(', ')}` : ''})`,
    ]),
  );
  // The Statuspage's scope is what its components are: w2's only component is Trading.
  expect(known.map((w) => [w.state, w.scope])).toEqual([['ongoing', 'trading'], ['ongoing', 'trading'], ['ongoing', 'funding'], ['ongoing', 'funding']]);
});

it('shows the windows under way and coming and the announcement naming USDT in the status page\'s banner, above the networks, escaped', async () => {
  await act([{ action: 'schedule_maintenance', id: 'w3', title: 'Node <upgrade> & "sync"', begins_at: '2031-05-06T07:00:00Z', duration: '2h', scope: 'trading', url: 'https://status.test/w3' }]);
  const page = async (): Promise<string> => (await fetch(`${s.url}/`)).text();
  await waitFor(async () => (await page()).match(/Node &lt;upgrade&gt;/g)?.length === 2, 'the new window on the page for both exchanges');
  const html = await page();
  const banner = html.slice(html.indexOf('<section class="banner" id="notices">'), html.indexOf('</section>') + '</section>'.length);
  const shown = (iso: string | null): string => (iso === null ? '' : iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z'));
  // w1 began when it was started and w2 when it was scheduled (the reference exchange's clock): their times as the API has them.
  type W = { id: string; begins: string; ends: string | null };
  const known = (await notices('&kind=maintenance')).maintenance as unknown as W[];
  const at = (id: string): string => {
    const w = known.find((k) => k.id === id)!;
    return `from <time>${shown(w.begins)}</time> ${w.ends === null ? 'end unknown' : `to <time>${shown(w.ends)}</time>`}`;
  };
  const { published } = (await notices('&kind=announcement')).announcements[0] as unknown as { published: string };
  const w1Line = (ex: string, scope: string) => `<li class="ongoing"><b>under way</b> <a href="https://status.test/w1" rel="noopener noreferrer"><bdi>Tether (USDT) wallet maintenance</bdi></a> <span class="ex">${ex}</span> · ${at('w1')} · scope ${scope}</li>`;
  const w2Title = (ex: string) => (ex === 'ex' ? `<a href="${s.sim.url}/-/statuspage/incidents/w2" rel="noopener noreferrer"><bdi>System upgrade</bdi></a>` : '<bdi>System upgrade</bdi>');
  const w2Line = (ex: string) => `<li class="ongoing"><b>under way</b> ${w2Title(ex)} <span class="ex">${ex}</span> · ${at('w2')} · scope trading</li>`;
  const w3Line = (ex: string) => `<li class="scheduled"><b>scheduled</b> <a href="https://status.test/w3" rel="noopener noreferrer"><bdi>Node &lt;upgrade&gt; &amp; &quot;sync&quot;</bdi></a> <span class="ex">${ex}</span> · from <time>2031-05-06 07:00:00Z</time> to <time>2031-05-06 09:00:00Z</time> · scope trading</li>`;
  const annLine = (ex: string) => `<li><time>${shown(published)}</time> <b>delisting</b> <a href="https://ann.test/7" rel="noopener noreferrer"><bdi>Will Delist Tether (USDT) &amp; &lt;ETH&gt;</bdi></a> <span class="ex">${ex}</span> · USDT</li>`;
  // `bad` reads the same exchange without its Statuspage: Bybit's own list, whose windows have no url of their own (a
  // funding one is funding by its title); `ex` shows each window once, with the Statuspage's url where Bybit's list has none.
  expect(banner.split('\n')).toEqual([
    '<section class="banner" id="notices">',
    '<h2 id="maintenance">Maintenance under way and coming (6)</h2>',
    '<ul class="notices" id="maintenance-list">',
    w1Line('bad', 'funding'), w1Line('ex', 'funding'), w2Line('bad'), w2Line('ex'), w3Line('bad'), w3Line('ex'),
    '</ul>',
    '<h2 id="announcements">Announcements naming watched coins, last 7 days (2)</h2>',
    '<ul class="notices" id="announcement-list">',
    annLine('bad'), annLine('ex'),
    '</ul>',
    '</section>',
  ]);
  expect(html.indexOf('id="notices"')).toBeLessThan(html.indexOf('id="exchanges"'));
});
