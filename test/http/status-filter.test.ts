import { serveState, type ServedState } from '../support/status-states';

jest.setTimeout(60_000);

/**
 * The filter (`/?q=`) narrows every list of the page in a storm: 407 networks closed (USDT and
 * USDC on three networks, BTC, C000-C199 on two), 414 alerts firing, the history of each
 * closure. The exchanges' health stays whole.
 */
let storm: ServedState;
beforeAll(async () => {
  storm = await serveState('storm');
});
afterAll(() => storm.close());

const page = async (path: string): Promise<string> => (await fetch(`${storm.url}${path}`)).text();
/** The part of the page from `<h2 id="{id}">` to the next `<h2`. */
const section = (html: string, id: string): string => {
  const at = html.indexOf(`<h2 id="${id}">`);
  const next = html.indexOf('<h2', at + 1);
  return html.slice(at, next < 0 ? undefined : next);
};
const keys = (html: string, tag: string): string[] => [...html.matchAll(new RegExp(`<${tag} [^>]*data-k="([^"]*)"`, 'g'))].map((m) => m[1] as string);
const heading = (html: string, id: string): string => new RegExp(`<h2 id="${id}">([^<]*)</h2>`).exec(html)?.[1] ?? '';

describe('the status page filter in a storm', () => {
  it('unfiltered: every list at its cap, the totals whole', async () => {
    const html = await page('/');
    expect(heading(html, 'disabled')).toBe('Networks with deposits or withdrawals closed (407)');
    expect(keys(section(html, 'disabled'), 'tr')).toHaveLength(407);
    expect(heading(html, 'alerts')).toBe('Alerts firing (414)');
    expect(keys(section(html, 'alerts'), 'tr')).toHaveLength(414);
    expect(keys(section(html, 'timeline'), 'li')).toHaveLength(40);
    expect(keys(section(html, 'changes'), 'tr')).toHaveLength(50);
  });

  it('?q=usdt: the closed networks, the firing alerts, the timeline and the changes are USDT\'s only, counted exactly', async () => {
    const html = await page('/?q=usdt');
    expect(heading(html, 'watched')).toBe('Watched networks (3)');
    expect(keys(section(html, 'watched'), 'details')).toEqual(['main usdt bsc ', 'main usdt trx ', 'main usdt eth ']);
    expect(heading(html, 'others')).toBe('Other networks (0)');
    expect(heading(html, 'symbols')).toBe('Watched symbols (1)');
    expect(heading(html, 'disabled')).toBe('Networks with deposits or withdrawals closed (3)');
    expect(keys(section(html, 'disabled'), 'tr')).toEqual(['main usdt bsc ', 'main usdt trx ', 'main usdt eth ']);
    expect(heading(html, 'alerts')).toBe('Alerts firing (6)');
    expect(section(html, 'alerts').match(/<tr data-k="[^"]*"><td class="sev-(\w+)">\w+<\/td><td>(\w+)<\/td>/g)?.map((r) => r.replace(/<[^>]+>/g, ' ').trim().replace(/\s+/g, ' '))).toEqual([
      'critical WithdrawDisabled', 'critical WithdrawDisabled', 'critical WithdrawDisabled', 'warning AnyClosed', 'warning AnyClosed', 'warning AnyClosed',
    ]);
    expect(keys(section(html, 'alerts'), 'tr')).toEqual(['main usdt bsc', 'main usdt trx', 'main usdt eth', 'main usdt bsc', 'main usdt trx', 'main usdt eth']);
    // 3 withdrawals and 1 deposit closed now, yesterday's TRX closure and reopening, 4 messages set.
    const timeline = [...section(html, 'timeline').matchAll(/<li class="(\w+)" data-k="([^"]*)">/g)].map((m) => `${m[1]} ${m[2]}`);
    // Newest first, keyed as the server filters (names and chain), so the page's script hides what ?q= would.
    expect(timeline).toEqual([
      'closed main usdt bsc', 'change main usdt bsc', 'closed main usdt trx', 'change main usdt trx', 'closed main usdt eth',
      'closed main usdt eth', 'change main usdt eth', 'reopened main usdt trx', 'closed main usdt trx', 'change main usdt trx',
    ]);
    // 7 now (3 withdrawals closed, 3 messages, 1 deposit closed) and 3 yesterday.
    expect(keys(section(html, 'changes'), 'tr')).toEqual([
      'main usdt bsc', 'main usdt bsc', 'main usdt trx', 'main usdt trx', 'main usdt eth', 'main usdt eth', 'main usdt eth', 'main usdt trx', 'main usdt trx', 'main usdt trx',
    ]);
    expect(section(html, 'changes')).not.toContain('class="more"');
    // The exchanges' health is not a list of networks: it stays.
    expect(section(html, 'exchanges')).toContain('<td>main</td>');
  });

  it('a filter that matches nothing says so in every list', async () => {
    const html = await page('/?q=zzzz');
    expect(html).toContain('No closed network matching “zzzz”.');
    expect(html).toContain('No firing alert matching “zzzz”.');
    expect(html).toContain('No recent change matching “zzzz”.');
    expect(html).toContain('<h2 id="alerts">Alerts firing (0)</h2>');
  });
});
