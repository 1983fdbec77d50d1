import { STATUS_CSP } from '../../src/http/app';
import type { Listening } from '../../src/http/server';
import type { ExchangeInput } from '../../src/http/state-view';
import { Views } from '../../src/http/views';
import { parseRules } from '../../src/rules/parse';
import type { Rule } from '../../src/rules/model';
import type { Snapshot } from '../../src/snapshot/model';
import { coinRecord } from '../support/records';
import { H, script, scriptedNow, T0 } from '../support/outage-script';
import { serveViews } from '../support/status-states';
import { openTempStore, type TempStore } from '../support/temp-store';

jest.setTimeout(60_000);

const NOW = T0 + 10 * H;

function rules(yaml: string): Rule[] {
  const r = parseRules(yaml, 'rules.yaml', {});
  if (!r.ok) throw new Error(r.problems.join('\n'));
  return r.rules;
}

const RULES = rules(`rules:
  - alert: WithdrawDisabled
    state: withdraw_disabled
    match: { coin: USDT }
  - alert: Everything
    change: [withdraw_fee_changed]
  - alert: FastMove
    ticker: move_percent
    window: 5m
    above: 3
    match: { symbol: BTCUSDT }
`);

function serve(views: Views): Promise<Listening> {
  return serveViews(views, undefined, NOW);
}

/** The part of the page from `<h2 id="{id}"` to the next `<h2` that is not inside it. */
const section = (html: string, id: string, until: string): string => html.slice(html.indexOf(`<h2 id="${id}">`), html.indexOf(until, html.indexOf(`<h2 id="${id}">`)));
const cards = (html: string): string[] => [...html.matchAll(/<details class="net[^"]*" data-k="([^"]*)">/g)].map((m) => m[1] as string);

describe('the status page for people (scripted closures, 10 h after watching began)', () => {
  let t: TempStore;
  let http: Listening;
  let current: Snapshot;

  beforeAll(async () => {
    t = openTempStore();
    script(t.store);
    // Now: ETH withdrawals reopened, BTC deposits closed with a hostile message.
    current = { ...scriptedNow('<img src=x onerror=alert(1)>'), tickers: new Map([['BTCUSDT', { symbol: 'BTCUSDT', lastPrice: '103000', openPrice: '100000' } as never]]) };
    const exchanges: ExchangeInput[] = [{ name: 'main', up: true, polls: { coins: { at: new Date(NOW).toISOString(), ok: true }, tickers: { at: new Date(NOW).toISOString(), ok: false, kind: 'timeout' } }, snapshot: current }];
    const views = new Views({ now: () => NOW, exchanges: () => exchanges, alerts: () => [], store: () => t.store, rules: () => RULES });
    http = await serve(views);
  });
  afterAll(async () => {
    await http.close();
    t.close();
  });

  const page = async (q = ''): Promise<string> => (await fetch(`${http.url}/${q}`)).text();

  it('is served with a strict CSP, and its script and style sheet from its own paths (nothing inline)', async () => {
    const res = await fetch(`${http.url}/`);
    const html = await res.text();
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'");
    expect(STATUS_CSP).toBe(res.headers.get('content-security-policy'));
    expect([...html.matchAll(/<script[^>]*>/g)].map((m) => m[0])).toEqual(['<script src="/status.js" defer></script>'.replace('</script>', '')]);
    expect(html).toContain('<link rel="stylesheet" href="/status.css">');
    expect(html).not.toMatch(/<style|style=/);
    const js = await fetch(`${http.url}/status.js`);
    const css = await fetch(`${http.url}/status.css`);
    expect([js.status, js.headers.get('content-type'), css.status, css.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8', 200, 'text/css; charset=utf-8']);
  });

  it('puts the networks a rule names first, and the rest behind "show all"', async () => {
    const html = await page();
    expect(html).toContain('<h2 id="watched">Watched networks (2)</h2>');
    expect(cards(section(html, 'watched', '<details class="rest"'))).toEqual(['main usdt eth ', 'main usdt trx ']);
    expect(html).toContain('<details class="rest" id="rest"><summary><h2 id="others">Other networks (1)</h2> <span class="muted">show all</span></summary>');
    expect(cards(html.slice(html.indexOf('<details class="rest"')))).toEqual(['main btc btc ']);
    // The rule on every network (no coin, network or chain named) singles none out; the ticker rule names BTCUSDT.
    expect(section(html, 'symbols', '<details')).toContain('<li data-k="main btcusdt"><b>BTCUSDT</b> <span class="ex">main</span> 103000 <span class="ok">+3.00 %</span></li>');
  });

  it('shows 30 days of bars per network, coloured by open ratio, with the outages in each bar\'s title and in the opened card', async () => {
    const html = await page();
    const trx = html.slice(html.indexOf('data-k="main usdt trx "'), html.indexOf('</details>', html.indexOf('data-k="main usdt trx "')));
    const bars = [...trx.matchAll(/<i class="d (\w+)" title="([^"]*)"><\/i>/g)].map((m) => [m[1], m[2]]);
    expect(bars).toHaveLength(30);
    expect(bars[0]).toEqual(['none', '2025-12-03: not watched']);
    expect(bars.slice(0, 29).every((b) => b[0] === 'none')).toBe(true);
    expect(bars[29]).toEqual(['part', '2026-01-01: 80.00 % open; withdraw closed 01:00–03:00']);
    expect(trx).toContain('<ul class="outages"><li>withdrawals closed 2026-01-01 01:00:00Z – 2026-01-01 03:00:00Z (2h)</li></ul>');
    const eth = html.slice(html.indexOf('data-k="main usdt eth "'), html.indexOf('</details>', html.indexOf('data-k="main usdt eth "')));
    expect(eth).toContain('<i class="d down" title="2026-01-01: 40.00 % open; withdraw closed before watching–06:00"></i>');
    expect(eth).toContain('<span class="ratio">40.00 % open</span>');
    const btc = html.slice(html.indexOf('data-k="main btc btc "'), html.indexOf('</details>', html.indexOf('data-k="main btc btc "')));
    expect(btc).toContain('<i class="d part" title="2026-01-01: 50.00 % open; deposit closed 05:00–now"></i>');
    expect(btc).toContain('<span class="since">closed since 2026-01-01 05:00:00Z</span><p class="msg" dir="auto">&lt;img src=x onerror=alert(1)&gt;</p>');
    expect(html).not.toContain('<img src=x');
  });

  it('narrows every list with ?q= (coin, network, chain, exchange words), keeping the form filled', async () => {
    const html = await page('?q=TRX');
    expect(html).toContain('<input id="q" type="search" name="q" value="TRX"');
    expect(html).toContain('<h2 id="watched">Watched networks (1)</h2>');
    expect(cards(html)).toEqual(['main usdt trx ']);
    expect(html).toContain('<details class="rest" id="rest" open><summary><h2 id="others">Other networks (0)</h2>');
    expect(html).toContain('<p class="empty">No other network matching “TRX”.</p>');
    expect(cards(await page('?q=main%20btc'))).toEqual(['main btc btc ']);
  });

  it('sorts by name, by the least available first, or (the default) the newest closure first', async () => {
    expect(cards(await page('?sort=availability&q=usdt'))).toEqual(['main usdt eth ', 'main usdt trx ']);
    expect(cards(await page('?sort=name'))).toEqual(['main usdt eth ', 'main usdt trx ', 'main btc btc ']);
    expect(await page('?sort=sideways')).toContain('<option value="status" selected>closed first</option>');
  });

  it('tells the timeline of outages and changes, newest first, with the exchange\'s messages escaped', async () => {
    const html = await page();
    const items = [...section(html, 'timeline', '<h2 id="changes">').matchAll(/<li class="(\w+)"[^>]*>(.*?)<\/li>/g)].map((m) => `${m[1]}: ${m[2]}`);
    expect(items).toEqual([
      'reopened: <time>2026-01-01 06:00:00Z</time> <b>USDT / ETH (main)</b> withdrawals reopened <bdi class="msg">wallet upgrade</bdi>',
      'closed: <time>2026-01-01 05:00:00Z</time> <b>BTC / BTC (main)</b> deposits closed, still closed after 5h',
      'reopened: <time>2026-01-01 03:00:00Z</time> <b>USDT / TRX (main)</b> withdrawals reopened after 2h <bdi class="msg">maintenance &lt;b&gt;&amp; / maintenance extended</bdi>',
      'change: <time>2026-01-01 02:00:00Z</time> <b>USDT / TRX (main)</b> withdraw desc changed <bdi class="msg">maintenance extended</bdi>',
      'closed: <time>2026-01-01 01:00:00Z</time> <b>USDT / TRX (main)</b> withdrawals closed <bdi class="msg">maintenance &lt;b&gt;&amp; / maintenance extended</bdi>',
      'change: <time>2026-01-01 01:00:00Z</time> <b>USDT / TRX (main)</b> withdraw desc set <bdi class="msg">maintenance &lt;b&gt;&amp;</bdi>',
    ]);
  });

  it('shows each exchange\'s health: last poll of each endpoint and the kind of its error', async () => {
    expect(await page()).toContain('<tr><td>main</td><td class="ok">up</td><td class="ok">ok 2026-01-01 10:00:00Z</td><td class="bad">timeout 2026-01-01 10:00:00Z</td>');
  });
});

describe('the status page at 8,000 networks', () => {
  it('renders watched networks up to a cap and a page of the rest, with counts; prints its render time', async () => {
    const t = openTempStore();
    try {
      const coins = new Map();
      for (let i = 0; i < 4000; i++) {
        const c = `C${String(i).padStart(4, '0')}`;
        coins.set(c, coinRecord(c, [{ network: 'ETH', withdrawEnable: i % 2 === 0 }, { network: 'TRX', depositEnable: i % 3 !== 0 }]));
      }
      const s: Snapshot = { exchange: 'main', coinsAt: T0, tickersAt: null, coins, tickers: new Map() };
      t.store.saveSnapshot(s, 'coins');
      const exchanges: ExchangeInput[] = [{ name: 'main', up: true, polls: { coins: null, tickers: null }, snapshot: s }];
      const views = new Views({ now: () => NOW, exchanges: () => exchanges, alerts: () => [], store: () => t.store, rules: () => rules('rules:\n  - alert: W\n    state: withdraw_disabled\n    match: { coin: "C0*|C1*" }\n') });
      const http = await serve(views);
      try {
        const took: number[] = [];
        let html = '';
        for (let i = 0; i < 7; i++) {
          const started = performance.now();
          html = await (await fetch(`${http.url}/`)).text();
          took.push(performance.now() - started);
        }
        expect(html).toContain('<h2 id="watched">Watched networks (4000)</h2>');
        expect(html).toContain('<p class="more">… and 3900 more watched networks: narrow them with the filter.</p>');
        expect(html).toContain('<h2 id="others">Other networks (4000)</h2>');
        expect(html).toContain('<p class="pager">Page 1 of 80 · <a href="/?page=2">next</a></p>');
        expect(cards(html)).toHaveLength(150);
        const sorted = [...took].sort((a, b) => a - b);
        process.stdout.write(`status page at 8,000 networks (ms): first ${took[0]?.toFixed(1)}, median ${sorted[3]?.toFixed(1)} of 7, ${(html.length / 1024).toFixed(0)} KB\n`);
      } finally {
        await http.close();
      }
    } finally {
      t.close();
    }
  });
});
