import { serveState, type ServedState } from '../support/status-states';

jest.setTimeout(60_000);

/** The storm's messages carry ESC[31m, BEL, NUL and a right-to-left override (HOSTILE_DESC). */
let storm: ServedState;
beforeAll(async () => {
  storm = await serveState('storm');
});
afterAll(() => storm.close());

describe('the status page with an exchange\'s control and bidi characters', () => {
  it('shows them as visible escapes, never as they are, and isolates the exchange\'s text', async () => {
    const html = await (await fetch(`${storm.url}/`)).text();
    // eslint-disable-next-line no-control-regex -- the characters that must not be on the page
    expect(html).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/);
    const shown = 'wallet &lt;b&gt;upgrade&lt;/b&gt; &amp; &quot;soon&quot; \\u001b[31mRED\\u001b[0m\\u0007 nul\\u0000 \\u202edesrever\\u202c end';
    expect(html).toContain(`<td class="msg" dir="auto">${shown} 0</td>`);
    expect(html).toContain(`<p class="msg" dir="auto">${shown} 0</p>`);
    expect(html).toMatch(new RegExp(`<bdi class="msg">${shown.replace(/[\\[\]]/g, '\\$&')} \\d+</bdi>`));
    expect(html).toContain(`<li class="scheduled"><b>scheduled</b> <bdi>Upgrade &lt;script&gt;x&lt;/script&gt; ${shown}</bdi>`);
  });
});
