import type { NoticeLists } from '../../src/notices/book-json';
import type { Announcement, Maintenance } from '../../src/notices/model';
import { renderStatusPage } from '../../src/http/status-page';
import { noticeBanner, renderNoticeBanner, NOTICE_ROWS } from '../../src/http/status-notices';

const H = 3_600_000;
const NOW = Date.UTC(2026, 10, 27, 12);

function win(over: Partial<Maintenance>): Maintenance {
  return { exchange: 'bybit', id: 'w', title: 'Wallet maintenance', state: 'scheduled', begins: NOW + H, ends: NOW + 2 * H, origin: 'planned', scope: 'funding', coins: [], symbols: [], url: null, source: 'bybit-status', ...over };
}

function ann(over: Partial<Announcement>): Announcement {
  return { exchange: 'bybit', id: 'a', kind: 'delisting', title: 'Will delist', url: null, published: NOW - H, coins: ['USDT'], symbols: [], chains: [], source: 'bybit-announcements', ...over };
}

const lists = (windows: Maintenance[], announcements: Announcement[]): NoticeLists => ({ status: null, windows, announcements });

describe('the status page banner of maintenance windows and announcements', () => {
  it('tells a window under way, one scheduled and an announcement, every upstream text escaped', () => {
    const banner = noticeBanner(
      [
        lists(
          [
            win({ id: 's', title: 'Upgrade <script>alert(1)</script>', begins: NOW + 3 * H, ends: null, scope: 'trading', url: 'javascript:alert(1)' }),
            win({ id: 'o', title: 'Tether "USDT" & <TRC20>', state: 'ongoing', begins: NOW - H, ends: NOW + H, url: 'https://status.test/o?a=1&b="2"' }),
            win({ id: 'done', state: 'completed' }),
            win({ id: 'gone', state: 'canceled' }),
          ],
          [
            ann({ id: '1', title: "Delist <img src=x onerror='x'>", url: 'https://ann.test/1' }),
            ann({ id: '2', title: 'No coin named', coins: [] }),
            ann({ id: '3', title: 'Too old', published: NOW - 7 * 24 * H - 1 }),
          ],
        ),
      ],
      NOW,
    );
    expect(renderNoticeBanner(banner)).toBe(`<section class="banner" id="notices">
<h2 id="maintenance">Maintenance under way and coming (2)</h2>
<ul class="notices" id="maintenance-list">
<li class="ongoing"><b>under way</b> <a href="https://status.test/o?a=1&amp;b=&quot;2&quot;" rel="noopener noreferrer"><bdi>Tether &quot;USDT&quot; &amp; &lt;TRC20&gt;</bdi></a> <span class="ex">bybit</span> · from <time>2026-11-27 11:00:00Z</time> to <time>2026-11-27 13:00:00Z</time> · scope funding</li>
<li class="scheduled"><b>scheduled</b> <bdi>Upgrade &lt;script&gt;alert(1)&lt;/script&gt;</bdi> <span class="ex">bybit</span> · from <time>2026-11-27 15:00:00Z</time> end unknown · scope trading</li>
</ul>
<h2 id="announcements">Announcements naming watched coins, last 7 days (1)</h2>
<ul class="notices" id="announcement-list">
<li><time>2026-11-27 11:00:00Z</time> <b>delisting</b> <a href="https://ann.test/1" rel="noopener noreferrer"><bdi>Delist &lt;img src=x onerror=&#39;x&#39;&gt;</bdi></a> <span class="ex">bybit</span> · USDT</li>
</ul>
</section>
`);
  });

  it('shows a window two sources tell once, with the scope and url either knows', () => {
    const banner = noticeBanner([lists([win({ scope: 'unknown', source: 'bybit-status' }), win({ url: 'https://s.test/w', source: 'statuspage' })], [])], NOW);
    expect(banner.windows).toEqual([{ exchange: 'bybit', title: 'Wallet maintenance', state: 'scheduled', begins: NOW + H, ends: NOW + 2 * H, scope: 'funding', url: 'https://s.test/w' }]);
  });

  it('shows at most 10 of each, newest announcement and soonest window first, and says how many more with a link to all', () => {
    const windows = Array.from({ length: 12 }, (_, i) => win({ id: `w${i}`, title: `W${i}`, begins: NOW + (12 - i) * H, ends: null }));
    const announcements = Array.from({ length: 13 }, (_, i) => ann({ id: `a${i}`, title: `A${i}`, exchange: i % 2 === 0 ? 'okx' : 'bybit', published: NOW - (13 - i) * H }));
    const banner = noticeBanner([lists(windows.slice(0, 6), announcements.slice(0, 6)), lists(windows.slice(6), announcements.slice(6))], NOW);
    expect([banner.windowsTotal, banner.announcementsTotal]).toEqual([12, 13]);
    expect(banner.windows.map((w) => w.title)).toEqual(['W11', 'W10', 'W9', 'W8', 'W7', 'W6', 'W5', 'W4', 'W3', 'W2']);
    expect(banner.announcements.map((a) => a.title)).toEqual(['A12', 'A11', 'A10', 'A9', 'A8', 'A7', 'A6', 'A5', 'A4', 'A3']);
    expect(NOTICE_ROWS).toEqual({ windows: 10, announcements: 10 });
    const html = renderNoticeBanner(banner);
    expect(html.match(/<p class="more">.*<\/p>/g)).toEqual([
      '<p class="more">… and 2 more (<a href="/api/v1/notices">all notices</a>).</p>',
      '<p class="more">… and 3 more (<a href="/api/v1/notices">all notices</a>).</p>',
    ]);
  });

  it('shows nothing when nothing is under way, coming or announced', () => {
    const banner = noticeBanner([lists([win({ state: 'completed' })], [ann({ coins: [] })])], NOW);
    expect(renderNoticeBanner(banner)).toBe('');
    const page = renderStatusPage({ generatedAt: NOW, exchanges: [], exchangesTotal: 0, disabled: [], disabledTotal: 0, alerts: [], alertsTotal: 0, changes: [], changesTotal: { n: 0, atLeast: false }, notices: banner });
    expect(page).not.toContain('id="notices"');
  });

  it('stands above the exchanges and the networks on the page, its titles shortened with the rest when the page is too big', () => {
    const huge = '<'.repeat(1000);
    const view = {
      generatedAt: NOW, exchanges: [], exchangesTotal: 0, alerts: [], alertsTotal: 0, changes: [], changesTotal: { n: 0, atLeast: false },
      // Enough hostile messages to pass the size bound.
      disabled: Array.from({ length: 500 }, (_, i) => ({ exchange: 'bybit', coin: `C${i}`, network: 'N', deposit: true, withdraw: false, since: NOW, message: huge, k: `bybit c${i} n` })),
      disabledTotal: 500,
      notices: noticeBanner([lists([win({ title: huge })], [])], NOW),
    };
    const page = renderStatusPage(view);
    expect(page.indexOf('id="notices"')).toBeLessThan(page.indexOf('id="exchanges"'));
    expect(Buffer.byteLength(page)).toBeLessThanOrEqual(900_000);
    const shown = Number(/Messages are shown in at most (\d+) characters/.exec(page)?.[1]);
    const title = /<li class="scheduled"><b>scheduled<\/b> <bdi>((?:&lt;)+)…?<\/bdi> /.exec(page)?.[1] ?? '';
    expect(title.length / 4).toBe(shown - 1);
  });
});
