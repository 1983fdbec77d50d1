import { fingerprint } from '../../src/alerts/alert';
import { NTFY_TOKEN, NTFY_TOPIC, NtfyDouble } from '../support/doubles/ntfy';
import { waitFor } from '../support/wait';
import { HOSTILE, TRC_NETWORK as TRC, daemonWithDouble, TRC_LABELS } from './chat-fixtures';

/**
 * From an upstream change to ntfy, through the daemon watching the reference exchange over HTTP:
 * a network's withdrawals close with a hostile withdrawDesc, the phone is told (plain text, urgent,
 * a tap to the alert), and told again, quietly, when they reopen.
 */


jest.setTimeout(60_000);

describe('ntfy, end to end from an upstream change', () => {
  const env = daemonWithDouble(() => new NtfyDouble().start(), (d) => `    - name: phone
      ntfy: { url: "${d.url}", topic: ${NTFY_TOPIC}, token: "${NTFY_TOKEN}" }
`);

  it('publishes when withdrawals close with a hostile message, and again when they reopen', async () => {
    const { s, double: ntfy } = env;
    const daemon = await s.start();
    const fp = fingerprint(TRC_LABELS);
    s.sim.control.apply({ action: 'set_network', ...TRC, set: { withdrawEnable: false, withdrawDesc: `${HOSTILE}\n**urgent**` } });
    await waitFor(() => ntfy.notifications.some((n) => n.title?.includes('FIRING') === true), 'ntfy to be told');
    expect(ntfy.notifications.find((n) => n.title?.includes('FIRING') === true)).toEqual({
      topic: NTFY_TOPIC,
      title: '[FIRING:1] WithdrawDisabled main',
      message: expect.stringMatching(new RegExp(`^🔴 USDT withdrawals disabled on Tron\\(TRC20\\) \\(main\\)\\nmain · USDT · Tron\\(TRC20\\) · tron, since [-0-9: ]+ UTC\\nMessage: ${HOSTILE.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\*\\*urgent\\*\\*$`)) as unknown as string,
      tags: ['red_circle', 'main'],
      priority: 5,
      click: `${daemon.url}/#${fp}`,
      markdown: false,
      by: 'token',
    });

    s.sim.control.apply({ action: 'set_network', ...TRC, set: { withdrawEnable: true, withdrawDesc: '' } });
    await waitFor(() => ntfy.notifications.some((n) => n.title === '[RESOLVED] WithdrawDisabled main'), 'the resolution');
    expect(ntfy.notifications.find((n) => n.title === '[RESOLVED] WithdrawDisabled main')).toMatchObject({ priority: 2, tags: ['white_check_mark', 'main'], markdown: false });
  });
});
