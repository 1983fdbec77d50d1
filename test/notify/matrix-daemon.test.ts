import { fingerprint } from '../../src/alerts/alert';
import { MATRIX_ROOM, MATRIX_TOKEN, MatrixDouble } from '../support/doubles/matrix';
import { waitFor } from '../support/wait';
import { HOSTILE, TRC_LABELS, TRC_NETWORK as TRC, daemonWithDouble } from './chat-fixtures';

/**
 * From an upstream change to a Matrix room, through the daemon watching the reference exchange
 * over HTTP: a network's withdrawals close with a hostile withdrawDesc (markup, @room, a user id),
 * the room gets an m.text whose HTML is escaped and which pings no one, and another when they
 * reopen, each by PUT with a transaction id of its own.
 */

jest.setTimeout(60_000);

/** What the exchange says: every chat service's markup and mentions, Matrix's own included, on two lines. */
const DESC = `${HOSTILE} @room @alice:example.org\n# big`;
/** DESC as the alert carries it: on one line. */
const SAID = `${HOSTILE} @room @alice:example.org # big`;
const SAID_HTML = '&lt;script&gt;alert(1)&lt;/script&gt; @everyone @here &lt;@123&gt; &lt;@&amp;456&gt; &lt;!channel&gt; &lt;@U123&gt; '
  + '&lt;http://evil.example|click&gt; [click](http://evil.example) **bold** &amp; more @room @alice:example.org # big';
const ROOM_PATH = '/_matrix/client/v3/rooms/!abcDEF123%3Aexample.org/send/m.room.message/';

/** The UTC time a line shows after `word` (`since 2026-01-02 03:04:05 UTC`), checked to lie between `from` and `to`. */
function shownTime(text: unknown, word: string, from: number, to: number): string {
  const shown = new RegExp(`· ${word} (\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d) UTC`).exec(String(text))?.[1];
  expect(shown).toBeDefined();
  const at = Date.parse(`${shown?.replace(' ', 'T')}Z`);
  expect(at).toBeGreaterThanOrEqual(Math.floor(from / 1000) * 1000);
  expect(at).toBeLessThanOrEqual(to);
  return shown as string;
}

describe('matrix, end to end from an upstream change', () => {
  const env = daemonWithDouble(() => new MatrixDouble().start(), (d) => `    - name: ops-room
      matrix: { homeserver: "${d.homeserver}", room_id: "${MATRIX_ROOM}", access_token: "${MATRIX_TOKEN}" }
`);

  it('posts an escaped, mention-free m.text (pushed to phones) when withdrawals close with a hostile message, and another when they reopen', async () => {
    const { s, double: room } = env;
    const daemon = await s.start();
    const url = daemon.url as string;
    const link = `${url}/#${fingerprint(TRC_LABELS)}`;
    const closedAt = Date.now();
    s.sim.control.apply({ action: 'set_network', ...TRC, set: { withdrawEnable: false, withdrawDesc: DESC } });
    await waitFor(() => room.events.length === 1, 'the firing notice');
    const since = shownTime(room.events[0]?.content.body, 'since', closedAt, Date.now());
    expect(room.events[0]?.content).toEqual({
      msgtype: 'm.text',
      body: `🔴 [FIRING:1] WithdrawDisabled main\n🔴 USDT withdrawals disabled on Tron(TRC20) (main)\nmain · USDT · Tron(TRC20) · tron · since ${since} UTC\n> ${SAID}\n${url}`,
      format: 'org.matrix.custom.html',
      formatted_body: '<p><strong>🔴 [FIRING:1] WithdrawDisabled main</strong></p>'
        + `<p><a href="${link}">🔴 USDT withdrawals disabled on Tron(TRC20) (main)</a><br>main · USDT · Tron(TRC20) · tron · since ${since} UTC</p>`
        + `<blockquote>${SAID_HTML}</blockquote><p><a href="${url}">status page</a></p>`,
      'm.mentions': {},
    });

    const reopenedAt = Date.now();
    s.sim.control.apply({ action: 'set_network', ...TRC, set: { withdrawEnable: true, withdrawDesc: '' } });
    await waitFor(() => room.events.length === 2, 'the resolution');
    const resolved = shownTime(room.events[1]?.content.body, 'resolved', reopenedAt, Date.now());
    expect(room.events[1]?.content).toEqual({
      msgtype: 'm.text',
      body: `✅ [RESOLVED] WithdrawDisabled main\n✅ Resolved: USDT withdrawals disabled on Tron(TRC20) (main)\nmain · USDT · Tron(TRC20) · tron · resolved ${resolved} UTC\n> ${SAID}\n${url}`,
      format: 'org.matrix.custom.html',
      formatted_body: '<p><strong>✅ [RESOLVED] WithdrawDisabled main</strong></p>'
        + `<p><a href="${link}">✅ Resolved: USDT withdrawals disabled on Tron(TRC20) (main)</a><br>main · USDT · Tron(TRC20) · tron · resolved ${resolved} UTC</p>`
        + `<blockquote>${SAID_HTML}</blockquote><p><a href="${url}">status page</a></p>`,
      'm.mentions': {},
    });

    // Neither @room nor the user id in the exchange's text notified anyone; each event came by PUT, with the token, under its own txnId.
    expect(room.events.map((e) => [e.roomId, e.pings, e.pushed])).toEqual([[MATRIX_ROOM, [], true], [MATRIX_ROOM, [], true]]);
    expect(room.requests.map((r) => [r.method, r.path, r.headers.authorization])).toEqual(room.events.map((e) => ['PUT', `${ROOM_PATH}${e.txnId}`, `Bearer ${MATRIX_TOKEN}`]));
    expect(room.events.map((e) => e.txnId)).toEqual([expect.stringMatching(/^[0-9a-f]{32}$/), expect.stringMatching(/^[0-9a-f]{32}$/)]);
    expect(room.events[0]?.txnId).not.toBe(room.events[1]?.txnId);
  });
});
