import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { freePort, requireBinary } from '../support/binaries';
import { Child, killAll, ROOT } from '../support/process';
import { scriptedExchange, startDaemon, writeDaemonConfig } from '../support/scripted-daemon';
import { waitFor } from '../support/wait';

jest.setTimeout(180_000);

const PROMETHEUS = requireBinary(['prometheus'], 'prometheus');
const PROMTOOL = requireBinary(['promtool'], 'prometheus');
const CHROMIUM = requireBinary(['chromium', 'chromium-browser'], 'chromium');

const HOSTILE = '<script>window.pwned=1</script><b>Maintenance</b> & "quotes"';

let dir: string;
let simUrl: string;
let daemonUrl: string;
let promUrl: string;

async function query(expr: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]> {
  const res = await fetch(`${promUrl}/api/v1/query?query=${encodeURIComponent(expr)}`);
  const body = (await res.json()) as { status: string; error?: string; data: { result: { metric: Record<string, string>; value: [number, string] }[] } };
  if (body.status !== 'success') throw new Error(`${expr}: ${body.error}`);
  return body.data.result;
}

function writeConfig(rulesFile: string): void {
  writeDaemonConfig(dir, simUrl, rulesFile);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'spotwatch-obs-'));
  simUrl = await scriptedExchange(
    dir,
    `name: hostile
steps:
  - at: 0s
    action: set_network
    coin: USDT
    network: Tron(TRC20)
    set: { withdrawEnable: false, withdrawDesc: ${JSON.stringify(HOSTILE)}, withdrawFee: "1.25" }
`,
    { coins: 300, seed: 9 },
  );
  writeConfig(join(ROOT, 'alerts.example.yaml'));
  daemonUrl = (await startDaemon(dir)).url;
  await waitFor(async () => (await fetch(`${daemonUrl}/readyz`)).status === 200, 'the daemon to be ready', 30_000);

  const port = await freePort();
  const target = new URL(daemonUrl).host;
  mkdirSync(join(dir, 'prom'));
  writeFileSync(
    join(dir, 'prometheus.yml'),
    `global: { scrape_interval: 1s, evaluation_interval: 1s }
rule_files: [${join(ROOT, 'config/prometheus/spotwatch.rules.yml')}]
scrape_configs:
  - job_name: spotwatch
    static_configs: [{ targets: ["${target}"] }]
`,
  );
  new Child(PROMETHEUS, [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'prom')}`, `--web.listen-address=127.0.0.1:${port}`, '--web.enable-lifecycle']);
  promUrl = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await query('up{job="spotwatch"} == 1').catch(() => [])).length === 1, 'Prometheus to scrape spotwatch', 60_000);
  // Two scrapes at least, so rate() and increase() have samples.
  await waitFor(async () => (await query('count_over_time(spotwatch_up[1m]) >= 3').catch(() => [])).length === 1, 'three scrapes', 60_000);
});

afterAll(async () => {
  await killAll();
  rmSync(dir, { recursive: true, force: true });
});

describe('a real Prometheus scraping spotwatch', () => {
  it('ships rules that pass promtool', () => {
    const out = execFileSync(PROMTOOL, ['check', 'rules', join(ROOT, 'config/prometheus/spotwatch.rules.yml')]).toString();
    expect(out).toContain('SUCCESS: 9 rules found');
  });

  it('answers every expression of the shipped dashboard with data', async () => {
    const dashboard = JSON.parse(readFileSync(join(ROOT, 'config/grafana/spotwatch.json'), 'utf8')) as { panels: { title: string; targets?: { expr: string }[] }[] };
    const exprs = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ title: p.title, expr: t.expr.replaceAll('$exchange', 'e2e').replaceAll('$symbol', 'BTCUSDT') })));
    expect(exprs.length).toBeGreaterThanOrEqual(20);
    const empty: string[] = [];
    for (const { title, expr } of exprs) if ((await query(expr)).length === 0) empty.push(`${title}: ${expr}`);
    expect(empty).toEqual([]);
  });

  it('has data for every metric the alerting rules use', async () => {
    const rules = readFileSync(join(ROOT, 'config/prometheus/spotwatch.rules.yml'), 'utf8');
    const metrics = [...new Set([...rules.matchAll(/spotwatch_[a-z_]+/g)].map((m) => m[0]))];
    expect(metrics.length).toBeGreaterThanOrEqual(6);
    const missing = [];
    for (const m of metrics) if ((await query(m)).length === 0) missing.push(m);
    expect(missing).toEqual([]);
  });

  it('exports the values the exchange serves, with the contract labels', async () => {
    const coins = (await (await fetch(`${simUrl}/api/v3/coins`)).json()) as { coin: string; networkList: { network: string; withdrawFee: string; withdrawMin: string; depositEnable: boolean; withdrawEnable: boolean }[] }[];
    const usdt = coins.find((c) => c.coin === 'USDT')!;
    const checked = usdt.networkList.slice(0, 4);
    for (const n of checked) {
      const where = `{exchange="e2e",coin="USDT",network="${n.network}"}`;
      expect(Number((await query(`spotwatch_network_withdraw_fee${where}`))[0]?.value[1])).toBe(Number(n.withdrawFee));
      expect(Number((await query(`spotwatch_network_withdraw_min${where}`))[0]?.value[1])).toBe(Number(n.withdrawMin));
      expect((await query(`spotwatch_network_withdraw_enabled${where}`))[0]?.value[1]).toBe(n.withdrawEnable ? '1' : '0');
      expect((await query(`spotwatch_network_deposit_enabled${where}`))[0]?.value[1]).toBe(n.depositEnable ? '1' : '0');
    }
    const trc = await query('spotwatch_network_desc_present{exchange="e2e",coin="USDT",network="Tron(TRC20)"}');
    expect(trc.map((r) => [r.metric.direction, r.value[1]]).sort()).toEqual([['deposit', '0'], ['withdraw', '1']]);
    expect(Number((await query('spotwatch_network_withdraw_fee{coin="USDT",network="Tron(TRC20)"}'))[0]?.value[1])).toBe(1.25);
    expect((await query('spotwatch_coins{exchange="e2e"}'))[0]?.value[1]).toBe(String(coins.length));
    const ticker = (await (await fetch(`${simUrl}/api/v3/market/ticker/24hr?symbol=BTCUSDT`)).json()) as { lastPrice: string; openPrice: string };
    const last = Number((await query('spotwatch_ticker_last_price{exchange="e2e",symbol="BTCUSDT"}'))[0]?.value[1]);
    expect(Math.abs(last / Number(ticker.lastPrice) - 1)).toBeLessThan(0.01);
    // No upstream text ever becomes a label value.
    const series = (await (await fetch(`${promUrl}/api/v1/series?match[]=${encodeURIComponent('{__name__=~"spotwatch_.*"}')}`)).json()) as { data: Record<string, string>[] };
    const values = series.data.flatMap((labels) => Object.values(labels));
    expect(values.length).toBeGreaterThan(1000);
    expect(values.filter((v) => v.includes('<') || v.includes('quotes'))).toEqual([]);
  });

  it('reloads: a broken file is rejected and shows as 0, a good one as 1', async () => {
    writeFileSync(join(dir, 'broken-rules.yaml'), 'rules:\n  - alert: X\n    state: nope\n');
    writeConfig(join(dir, 'broken-rules.yaml'));
    const bad = await fetch(`${daemonUrl}/-/reload`, { method: 'POST' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { errors: string[] }).errors[0]).toMatch(/broken-rules\.yaml:3:12: rules\[0\]\.state: expected one of/);
    await waitFor(async () => (await query('spotwatch_config_last_reload_successful == 0')).length === 1, 'Prometheus to see the failed reload', 30_000);
    writeConfig(join(ROOT, 'alerts.example.yaml'));
    expect((await fetch(`${daemonUrl}/-/reload`, { method: 'POST' })).status).toBe(200);
    await waitFor(async () => (await query('spotwatch_config_last_reload_successful == 1')).length === 1, 'Prometheus to see the good reload', 30_000);
    expect((await fetch(`${daemonUrl}/readyz`)).status).toBe(200);
  });
});

describe('the status page in headless Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  });
  afterAll(() => browser?.close());

  it('shows a disabled network with its message, escaped, on a phone-sized screen', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(`${daemonUrl}/`);
    const row = page.locator('#disabled + .scroll tr', { hasText: 'Tron(TRC20)' }).filter({ has: page.locator('td:nth-child(2)', { hasText: /^USDT$/ }) });
    await row.waitFor();
    const cells = await row.locator('td').allTextContents();
    expect(cells.slice(0, 5)).toEqual(['e2e', 'USDT', 'Tron(TRC20)', 'open', 'closed']);
    expect(cells[6]).toBe(HOSTILE);
    expect(await page.evaluate(() => (globalThis as unknown as { pwned?: number }).pwned)).toBeUndefined();
    expect(await page.locator('#disabled + .scroll b').count()).toBe(0);
    expect(await page.locator('h2#alerts').textContent()).toMatch(/^Alerts firing \(\d+\)$/);
    mkdirSync(join(ROOT, 'test-output'), { recursive: true });
    await page.screenshot({ path: join(ROOT, 'test-output', 'status-page.png'), fullPage: false });
    await page.close();
  });
});
