/** The `log` receiver's lines: a change event is a CHANGE, not a FIRING (a cleared message fires nothing). */
import { fingerprint, type Alert } from '../../src/alerts/alert';
import { logNotifier } from '../../src/notify/log/log';
import { buildDelivery } from '../../src/notify/pipeline/build-delivery';
import { alertLine } from '../../src/notify/kit/text';
import { capturedLogger } from '../support/log-capture';

const AT = Date.UTC(2026, 0, 2, 3, 4, 5);

function alert(labels: Record<string, string>, summary: string, over: Partial<Alert> = {}): Alert {
  return {
    fingerprint: fingerprint(labels), ruleId: labels.alertname ?? '', entity: 'e', labels, annotations: { summary }, status: 'firing',
    activeAt: AT, startsAt: AT, endsAt: null, lastActiveAt: AT, lastNotifiedAt: AT, value: null, event: false, ...over,
  };
}

const closed = alert({ alertname: 'WithdrawDisabled', exchange: 'main', coin: 'USDT', network: 'TRX', kind: 'withdraw_disabled' }, 'USDT withdrawals closed on TRX');
const cleared = { alertname: 'MaintenanceMessage', exchange: 'main', coin: 'USDT', network: 'TRX', kind: 'withdraw_desc_cleared' };
// A change event: its fingerprint is that of its labels and its time (alerts/lifecycle.ts).
const event = alert(cleared, 'USDT on TRX: the withdrawal message was cleared', { fingerprint: fingerprint(cleared, String(AT)), event: true });
const resolved = alert({ alertname: 'ExchangeDown', exchange: 'main', endpoint: 'coins' }, 'main coins polls failing', { status: 'resolved', endsAt: AT + 60_000 });

it('logs a change event as CHANGE, a condition as FIRING or RESOLVED', async () => {
  const { logger, lines } = capturedLogger('info');
  await logNotifier('log', logger).send(buildDelivery('log', {}, [closed, event, resolved], 'http://sw', AT));
  expect(lines.map((l) => [l.msg, l.status])).toEqual([
    ['FIRING USDT withdrawals closed on TRX', 'firing'],
    ['CHANGE USDT on TRX: the withdrawal message was cleared', 'firing'],
    ['RESOLVED main coins polls failing', 'resolved'],
  ]);
});

it('writes a change event as CHANGE at its time in the text of e-mails and webhooks', () => {
  const { notification } = buildDelivery('hook', {}, [closed, event], 'http://sw', AT);
  expect(notification.alerts.map(alertLine)).toEqual([
    'FIRING  USDT withdrawals closed on TRX  [main / USDT / TRX] since 2026-01-02T03:04:05.000Z',
    'CHANGE  USDT on TRX: the withdrawal message was cleared  [main / USDT / TRX] at 2026-01-02T03:04:05.000Z',
  ]);
});
