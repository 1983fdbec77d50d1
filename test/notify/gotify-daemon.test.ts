import { GOTIFY_APP_TOKEN, GotifyDouble, unescapedPunctuation, unescapeMarkdown } from '../support/doubles/gotify';
import { waitFor } from '../support/wait';
import { HOSTILE, TRC_NETWORK as TRC, daemonWithDouble } from './chat-fixtures';

/**
 * From an upstream change to a Gotify server, through the daemon watching the reference exchange
 * over HTTP: a network's withdrawals close with a hostile withdrawDesc, the phone gets a markdown
 * message in which that text renders as written (every punctuation escaped), popping up (priority
 * 8), and a quiet one (priority 2) when they reopen; the token only ever in X-Gotify-Key.
 */

jest.setTimeout(60_000);

/** What the exchange says: every chat service's markup and mentions, and a markdown heading on a line of its own. */
const DESC = `${HOSTILE} @room @alice:example.org\n# big`;
/** DESC on one line, as the alert carries it. */
const SAID = `${HOSTILE} @room @alice:example.org # big`;
/** SAID as Gotify's markdown gets it: a backslash before every ASCII punctuation character. */
const SAID_MD = '\\<script\\>alert\\(1\\)\\<\\/script\\> \\@everyone \\@here \\<\\@123\\> \\<\\@\\&456\\> \\<\\!channel\\> \\<\\@U123\\> '
  + '\\<http\\:\\/\\/evil\\.example\\|click\\> \\[click\\]\\(http\\:\\/\\/evil\\.example\\) \\*\\*bold\\*\\* \\& more \\@room \\@alice\\:example\\.org \\# big';

/** The UTC time a block shows after `word` (markdown-escaped: `since 2026\-01\-02 03\:04\:05 UTC`), checked to lie between `from` and `to`; as shown. */
function shownTime(text: unknown, word: string, from: number, to: number): string {
  const shown = new RegExp(`· ${word} (\\d{4}\\\\-\\d\\d\\\\-\\d\\d \\d\\d\\\\:\\d\\d\\\\:\\d\\d) UTC`).exec(String(text))?.[1];
  expect(shown).toBeDefined();
  const at = Date.parse(`${unescapeMarkdown(shown ?? '').replace(' ', 'T')}Z`);
  expect(at).toBeGreaterThanOrEqual(Math.floor(from / 1000) * 1000);
  expect(at).toBeLessThanOrEqual(to);
  return shown as string;
}

describe('gotify, end to end from an upstream change', () => {
  const env = daemonWithDouble(() => new GotifyDouble().start(), (d) => `    - name: phone
      gotify: { url: "${d.url}", token: "${GOTIFY_APP_TOKEN}" }
`);

  it('pushes a markdown message that shows a hostile withdrawDesc as written, and a quiet one when withdrawals reopen', async () => {
    const { s, double: gotify } = env;
    const daemon = await s.start();
    const extras = { 'client::display': { contentType: 'text/markdown' }, 'client::notification': { click: { url: daemon.url as string } } };
    const closedAt = Date.now();
    s.sim.control.apply({ action: 'set_network', ...TRC, set: { withdrawEnable: false, withdrawDesc: DESC } });
    await waitFor(() => gotify.messages.length === 1, 'the firing message');
    const since = shownTime(gotify.messages[0]?.message, 'since', closedAt, Date.now());
    expect(gotify.messages[0]).toEqual({
      title: '🔴 [FIRING:1] WithdrawDisabled main',
      message: `🔴 **USDT withdrawals disabled on Tron\\(TRC20\\) \\(main\\)**  \nmain · USDT · Tron\\(TRC20\\) · tron · since ${since} UTC  \n> ${SAID_MD}`,
      priority: 8,
      extras,
      via: 'header',
    });
    // Rendered, the quote is the exchange's text, and none of its punctuation is left to act as markup.
    const quote = gotify.messages[0]?.message?.split('\n> ')[1] ?? '';
    expect(unescapeMarkdown(quote)).toBe(SAID);
    expect(unescapedPunctuation(quote)).toEqual([]);

    const reopenedAt = Date.now();
    s.sim.control.apply({ action: 'set_network', ...TRC, set: { withdrawEnable: true, withdrawDesc: '' } });
    await waitFor(() => gotify.messages.length === 2, 'the resolution');
    const resolved = shownTime(gotify.messages[1]?.message, 'resolved', reopenedAt, Date.now());
    expect(gotify.messages[1]).toEqual({
      title: '✅ [RESOLVED] WithdrawDisabled main',
      message: `✅ **Resolved\\: USDT withdrawals disabled on Tron\\(TRC20\\) \\(main\\)**  \nmain · USDT · Tron\\(TRC20\\) · tron · resolved ${resolved} UTC  \n> ${SAID_MD}`,
      priority: 2,
      extras,
      via: 'header',
    });

    // Both to the application's endpoint, the token in the header and never in the URL.
    expect(gotify.requests.map((r) => [r.method, r.path, r.headers['x-gotify-key'], r.headers['content-type']])).toEqual([
      ['POST', '/message', GOTIFY_APP_TOKEN, 'application/json'],
      ['POST', '/message', GOTIFY_APP_TOKEN, 'application/json'],
    ]);
  });
});
