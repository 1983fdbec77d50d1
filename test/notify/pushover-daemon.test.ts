import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PUSHOVER_TOKEN, PUSHOVER_USER, PushoverDouble } from '../support/doubles/pushover';
import { waitFor } from '../support/wait';
import { HOSTILE, TRC_NETWORK as TRC, daemonWithDouble } from './chat-fixtures';

/**
 * From an upstream change to Pushover through the daemon watching the reference exchange: a
 * critical closure with a hostile message rings as an emergency (escaped), the daemon restarts,
 * and the reopening cancels the emergency by the receipt the daemon kept in its state_dir.
 */

jest.setTimeout(60_000);

describe('the pushover receiver, end to end, across a restart', () => {
  const env = daemonWithDouble(() => new PushoverDouble().start(), (d) => `    - name: oncall-phone
      pushover: { token: "${PUSHOVER_TOKEN}", user: "${PUSHOVER_USER}", api_url: "${d.apiUrl}" }
`);

  it('rings an emergency when withdrawals close, and cancels it by its receipt when they reopen after a restart', async () => {
    const { s, double } = env;
    await s.start();
    s.sim.control.apply({ action: 'set_network', ...TRC, set: { withdrawEnable: false, withdrawDesc: HOSTILE } });
    await waitFor(() => double.repeating().length === 1, 'the emergency');
    const rung = double.messages[0];
    expect(rung).toMatchObject({ title: '🔴 [FIRING:1] WithdrawDisabled main', priority: 2, retry: 60, expire: 3600, html: 1 });
    expect(rung?.message).toContain('\n&lt;script&gt;alert(1)&lt;/script&gt; @everyone @here &lt;@123&gt;');
    const file = join(s.config.state_dir, 'pushover-oncall-phone.receipts.json');
    await waitFor(() => existsSync(file), 'the receipt on disk');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual([expect.objectContaining({ receipt: double.repeating()[0] })]);

    await s.stop();
    await s.start();
    s.sim.control.apply({ action: 'set_network', ...TRC, set: { withdrawEnable: true, withdrawDesc: '' } });
    await waitFor(() => double.repeating().length === 0 && double.messages.some((m) => m.title?.startsWith('✅') === true), 'the cancel and the resolution');
    expect(double.requests.filter((r) => r.path.endsWith('/cancel.json')).map((r) => r.json)).toEqual([{ token: PUSHOVER_TOKEN }]);
    expect(double.messages.find((m) => m.title?.startsWith('✅') === true)).toMatchObject({ title: '✅ [RESOLVED] WithdrawDisabled main', priority: -1 });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual([]);
  });
});
