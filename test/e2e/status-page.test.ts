import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { axeViolations, failing } from '../support/axe';
import { requireBinary } from '../support/binaries';
import { killAll, ROOT, spotwatch } from '../support/process';
import { scriptedExchange, startDaemon, writeDaemonConfig } from '../support/scripted-daemon';
import { checkHtml } from '../support/vnu';
import { waitFor } from '../support/wait';

jest.setTimeout(120_000);

// Fails the suite with a clear message when Debian's chromium is missing (never a silent skip).
const CHROMIUM = requireBinary(['chromium', 'chromium-browser'], 'chromium');

const MESSAGE = 'TRC20 wallet <maintenance> & "upgrade"';
/** A window's title with no place to break for 120 characters. */
const WINDOW_TITLE = `<Node>&"upgrade"-${'W'.repeat(120)}`;

let dir: string;
let daemonUrl: string;
let notesUrl: string;
let browser: Browser;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'spotwatch-status-page-'));
  // A scripted closure: USDT on TRC20 closes for withdrawals with a message and reopens 3 s later;
  // then BTC deposits close and stay closed.
  writeFileSync(join(dir, 'rules.yaml'), 'rules:\n  - alert: WithdrawDisabled\n    state: withdraw_disabled\n    match: { coin: USDT, exchange: e2e }\n    severity: critical\n');
  const simUrl = await scriptedExchange(
    dir,
    `name: closure
steps:
  - at: 2s
    action: set_network
    coin: USDT
    network: Tron(TRC20)
    set: { withdrawEnable: false, withdrawDesc: ${JSON.stringify(MESSAGE)} }
  - at: 5s
    action: set_network
    coin: USDT
    network: Tron(TRC20)
    set: { withdrawEnable: true, withdrawDesc: null }
  - at: 6s
    action: set_network
    coin: BTC
    network: BTC
    set: { depositEnable: false }
`,
    { coins: 60, seed: 3 },
  );
  // A second exchange speaking KuCoin (its status, announcements and Statuspage read every second): the banner's notices.
  const notes = spotwatch(['simulate', '--listen', '127.0.0.1:0', '--dialect', 'kucoin', '--coins', '20', '--seed', '3']);
  notesUrl = (await notes.output(/reference exchange listening on (http:\/\/\S+)/))[1] as string;
  const config = writeDaemonConfig(dir, simUrl, join(dir, 'rules.yaml'), 'log: { format: json }\n');
  const second = `  - name: notes\n    dialect: kucoin\n    base_url: ${notesUrl}\n    poll: { coins: 5s, tickers: 5s }\n    notices: { poll: 1s, statuspage: ${notesUrl}/-/statuspage }\n`;
  writeFileSync(config, readFileSync(config, 'utf8').replace('server:', `${second}server:`));
  daemonUrl = (await startDaemon(dir)).url;
  // A funding window under way (it leaves the exchange open), one coming with a long hostile title, an announcement naming USDT.
  const actions = [
    { action: 'schedule_maintenance', id: 'w1', title: 'TRC20 wallet maintenance', duration: '2h', scope: 'funding', coins: ['USDT'], url: 'https://status.test/w1' },
    { action: 'schedule_maintenance', id: 'w2', title: WINDOW_TITLE, begins_at: '2031-05-06T07:00:00Z', duration: '90m', scope: 'funding' },
    { action: 'announce', id: 7, kind: 'delisting', title: 'Will Delist Tether (USDT) & <ETH>', url: 'https://ann.test/7' },
  ];
  expect((await fetch(`${notesUrl}/-/sim/actions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(actions) })).status).toBe(200);
  type Notices = { maintenance: unknown[]; announcements: unknown[] };
  await waitFor(
    async () => {
      const n = (await (await fetch(`${daemonUrl}/api/v1/notices`)).json()) as Notices;
      return n.maintenance.length >= 2 && n.announcements.length >= 1;
    },
    'the windows and the announcement read',
    40_000,
    200,
  );
  type Outages = { outages: { coin: string; network: string; direction: string; to: string | null }[] };
  await waitFor(
    async () => {
      const { outages } = (await (await fetch(`${daemonUrl}/api/v1/outages`)).json()) as Outages;
      const trx = outages.find((o) => o.coin === 'USDT' && o.network === 'Tron(TRC20)' && o.direction === 'withdraw');
      const btc = outages.find((o) => o.coin === 'BTC' && o.network === 'BTC' && o.direction === 'deposit');
      return trx?.to != null && btc !== undefined && btc.to === null;
    },
    'the scripted closure to reopen and BTC deposits to close',
    40_000,
    200,
  );
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});

afterAll(async () => {
  await browser?.close();
  await killAll();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

/** The page at a size, with every CSP violation or script error it reports collected. */
async function open(width: number, height: number, touch: boolean): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width, height }, hasTouch: touch, isMobile: touch });
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(`${daemonUrl}/`);
  await page.locator('#watched-list details.net').first().waitFor();
  return { page, problems };
}

/** The page's width as laid out and as shown (no DOM types here: the suite compiles for Node). */
const overflow = (page: Page) =>
  page.evaluate(() => {
    const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
    return { scroll: root.scrollWidth, client: root.clientWidth };
  });
type Details = { open: boolean };
const visibleKeys = (page: Page, list: string) => page.locator(`${list} details.net:visible`).evaluateAll((els) => els.map((e) => e.getAttribute('data-k')));

describe.each([
  { name: 'desktop', width: 1280, height: 900, touch: false },
  { name: 'phone', width: 390, height: 844, touch: true },
])('the status page in headless Chromium at $width px ($name)', ({ name, width, height, touch }) => {
  let page: Page;
  let problems: string[];
  beforeAll(async () => {
    ({ page, problems } = await open(width, height, touch));
  });
  afterAll(() => page?.close());

  it('puts the networks the rule names (USDT) first and keeps the rest collapsed behind "show all"', async () => {
    const watched = await visibleKeys(page, '#watched-list');
    expect(watched.length).toBeGreaterThan(1);
    expect(watched.filter((k) => !k?.startsWith('e2e usdt '))).toEqual([]);
    expect(await page.locator('#watched').textContent()).toBe(`Watched networks (${watched.length})`);
    expect(await page.locator('#rest').evaluate((d) => (d as unknown as Details).open)).toBe(false);
    expect(await page.locator('#rest-list details.net:visible').count()).toBe(0);
  });

  it('shows 30 bars a network, with the closure in today\'s bar and its outage when the network is tapped open', async () => {
    const card = page.locator('#watched-list details.net[data-k^="e2e usdt tron(trc20)"]');
    expect(await card.locator('.bars .d').count()).toBe(30);
    const today = card.locator('.bars .d').last();
    expect(await today.getAttribute('class')).not.toBe('d up');
    expect(await today.getAttribute('title')).toMatch(/^\d{4}-\d\d-\d\d: \d+\.\d\d % open; withdraw closed \d\d:\d\d–\d\d:\d\d$/);
    if (touch) await card.locator('summary').tap();
    else await card.locator('summary').click();
    const outage = card.locator('.outages li');
    await outage.waitFor();
    expect(await outage.allTextContents()).toEqual([expect.stringMatching(/^withdrawals closed \d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ – \d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ \(\d+s\)$/)]);
    const { scroll, client } = await overflow(page);
    expect(scroll).toBeLessThanOrEqual(client);
    if (touch) await card.locator('summary').tap();
    else await card.locator('summary').click();
  });

  it('tells the closure and the reopening in the timeline, with the message as text', async () => {
    const items = await page.locator('#timeline-list li').allTextContents();
    expect(items).toContainEqual(expect.stringMatching(new RegExp(`^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\dZ USDT / Tron\\(TRC20\\) \\(e2e\\) withdrawals reopened after \\d+s ${MESSAGE.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`)));
    expect(items).toContainEqual(expect.stringMatching(/Z BTC \/ BTC \(e2e\) deposits closed, still closed after (\d+s|\d+m)$/));
    expect(await page.locator('#timeline-list maintenance').count()).toBe(0);
  });

  it('shows the maintenance under way and coming and the announcement naming USDT above the networks, escaped, nothing wider than the screen', async () => {
    const T = '\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\dZ';
    expect(await page.locator('#maintenance-list li').allTextContents()).toEqual([
      expect.stringMatching(new RegExp(`^under way TRC20 wallet maintenance notes · from ${T} to ${T} · scope funding$`)),
      `scheduled ${WINDOW_TITLE} notes · from 2031-05-06 07:00:00Z to 2031-05-06 08:30:00Z · scope funding`,
    ]);
    expect(await page.locator('#maintenance-list li a').evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual(['https://status.test/w1', `${notesUrl}/-/statuspage/incidents/w2`]);
    expect(await page.locator('#announcement-list li').allTextContents()).toEqual([expect.stringMatching(new RegExp(`^${T} delisting Will Delist Tether \\(USDT\\) & <ETH> notes · USDT$`))]);
    const banner = (await page.locator('#notices').boundingBox())!;
    const watched = (await page.locator('#watched').boundingBox())!;
    expect(banner.y + banner.height).toBeLessThanOrEqual(watched.y);
    expect(banner.x + banner.width).toBeLessThanOrEqual(width);
    const inner = await page.locator('#notices').evaluate((e) => {
      const el = e as unknown as { scrollWidth: number; clientWidth: number };
      return { scroll: el.scrollWidth, client: el.clientWidth };
    });
    expect(inner.scroll).toBeLessThanOrEqual(inner.client);
    const { scroll, client } = await overflow(page);
    expect(scroll).toBeLessThanOrEqual(client);
  });

  it('has no serious or critical accessibility violation (axe-core, WCAG 2.2 AA), with every section and card opened', async () => {
    expect(failing(await axeViolations(page, true))).toEqual([]);
    await page.reload();
    await page.locator('#watched-list details.net').first().waitFor();
  });

  it('narrows the lists as one types in the filter box, and opens the rest to show what matches there', async () => {
    await page.locator('#q').fill('btc');
    await waitFor(async () => (await visibleKeys(page, '#watched-list')).length === 0, 'the watched list to narrow');
    const rest = await visibleKeys(page, '#rest-list');
    expect(rest.length).toBeGreaterThan(0);
    expect(rest.filter((k) => !k?.includes('btc'))).toEqual([]);
    expect(rest.filter((k) => k?.startsWith('e2e btc btc '))).toHaveLength(1);
    expect(await page.locator('#rest').evaluate((d) => (d as unknown as Details).open)).toBe(true);
    await page.locator('#q').fill('usdt tron');
    await waitFor(async () => (await visibleKeys(page, '#watched-list')).length === 1, 'the watched list to narrow to one');
    expect(await visibleKeys(page, '#watched-list')).toEqual([expect.stringMatching(/^e2e usdt tron\(trc20\) /)]);
  });

  it('has nothing wider than the screen, with every section open', async () => {
    await page.locator('#q').fill('');
    await page.locator('#rest').evaluate((d) => {
      (d as unknown as Details).open = true;
    });
    for (const d of await page.locator('details.net').all()) await d.evaluate((e) => ((e as unknown as Details).open = true));
    const { scroll, client } = await overflow(page);
    expect(scroll).toBeLessThanOrEqual(client);
    expect(client).toBeLessThanOrEqual(width);
    mkdirSync(join(ROOT, 'test-output'), { recursive: true });
    await page.screenshot({ path: join(ROOT, 'test-output', `status-page-${name}.png`), fullPage: true });
    expect(problems).toEqual([]);
  });

  it('keeps "show all" open across the page\'s refresh', async () => {
    await page.reload();
    await page.locator('#watched-list details.net').first().waitFor();
    expect(await page.locator('#rest').evaluate((d) => (d as unknown as Details).open)).toBe(true);
    expect(problems).toEqual([]);
  });
});

it('is valid HTML as the running daemon serves it, with the banner, unfiltered and filtered (the Nu Html Checker: no error)', async () => {
  const files = [];
  for (const [name, path] of [['daemon', '/'], ['daemon-filtered', '/?q=usdt']] as const) {
    const file = join(dir, `${name}.html`);
    writeFileSync(file, await (await fetch(`${daemonUrl}${path}`)).text());
    files.push(file);
  }
  const report = await checkHtml(files);
  expect(report.messages.map((m) => `${m.url.replace(/^.*\//, '')} ${m.type} line ${m.lastLine ?? '?'}: ${m.message}`)).toEqual([]);
});

describe('the status page when every network is closed with a hostile, huge message (4,000 coins)', () => {
  /** 7 characters that escape to 22 bytes of HTML. */
  const HOSTILE = '<b>&\'"€';
  let url: string;
  beforeAll(async () => {
    const huge = join(dir, 'huge');
    mkdirSync(huge);
    const sim = spotwatch(['simulate', '--listen', '127.0.0.1:0', '--coins', '4000', '--seed', '5']);
    const simUrl = (await sim.output(/reference exchange listening on (http:\/\/\S+)/))[1] as string;
    const coins = JSON.parse(await (await fetch(`${simUrl}/api/v3/coins`)).text()) as { coin: string; networkList: { network: string }[] }[];
    const networks = coins.flatMap((c) => c.networkList.map((n) => ({ coin: c.coin, network: n.network })));
    // Every withdrawal closed: 20 messages of 100 KB, the rest past the cap; in bodies the admin API takes (1 MB).
    const actions = networks.map((n, i) => ({ action: 'set_network', coin: n.coin, network: n.network, set: { withdrawEnable: false, withdrawDesc: `${n.coin} ${HOSTILE.repeat(i < 20 ? 14_000 : 300)}` } }));
    for (let i = 0; i < actions.length; i += i < 20 ? 1 : 150) {
      const chunk = actions.slice(i, i < 20 ? i + 1 : i + 150);
      const res = await fetch(`${simUrl}/-/sim/actions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(chunk) });
      expect(res.status).toBe(200);
    }
    writeFileSync(join(huge, 'rules.yaml'), 'rules:\n  - alert: WithdrawDisabled\n    state: withdraw_disabled\n    severity: critical\n    annotations:\n      summary: "{{coin}} closed on {{network}}: {{withdraw_desc}}"\n');
    writeDaemonConfig(huge, simUrl, join(huge, 'rules.yaml'), 'log: { format: json }\n');
    writeFileSync(join(huge, 'spotwatch.yaml'), readFileSync(join(huge, 'spotwatch.yaml'), 'utf8').replace('poll: { coins: 1s, tickers: 1s }', 'poll: { coins: 2s, tickers: 5s }\n    timeout: 20s\n    max_body_bytes: 64MiB'));
    url = (await startDaemon(huge)).url;
    await waitFor(async () => (await (await fetch(`${url}/`)).text()).includes(`closed (${networks.length})</h2>`), 'every network closed on the page', 60_000, 500);
  });

  it('is under 1 MB, loads and answers the filter box within 2 s in Chromium', async () => {
    const bytes = (await (await fetch(`${url}/`)).arrayBuffer()).byteLength;
    expect(bytes).toBeLessThan(1_000_000);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    try {
      const started = Date.now();
      await page.goto(`${url}/`, { waitUntil: 'load', timeout: 10_000 });
      // Interactive: the page's script narrows the lists as one types.
      await page.locator('#q').fill('zzzz-no-such-coin');
      await page.waitForFunction(() => {
        const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<{ offsetParent: unknown }> } }).document;
        return Array.from(doc.querySelectorAll('details.net')).every((d) => d.offsetParent === null);
      }, undefined, { timeout: 10_000 });
      const took = Date.now() - started;
      console.log(`status page with hostile huge messages: ${bytes} bytes, loaded and filtered in ${took} ms`);
      expect(took).toBeLessThan(2_000);
      expect(await page.locator('.msg').first().textContent()).toMatch(/^\S+ (<b>&'"€)+/);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
