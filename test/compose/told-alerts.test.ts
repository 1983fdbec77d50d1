import type { Alert } from '../../src/alerts/alert';
import { ToldAlerts } from '../../src/compose/delivery-service';

const alert = (fp: string, status: Alert['status']): Alert => ({ fingerprint: fp, ruleId: 'r', entity: fp, labels: { alertname: 'W', severity: 'warning', exchange: 'main' }, annotations: {}, status, activeAt: 0, startsAt: 0, endsAt: null, lastActiveAt: 0, lastNotifiedAt: 0, value: 1, event: false });

describe('what the delivery thread takes of what the poll thread tells', () => {
  it('keeps its copy of the active alerts as steps set and remove them', () => {
    const t = new ToldAlerts();
    expect(t.take({ t: 'alerts', set: [alert('a', 'firing'), alert('b', 'pending')], removed: [] })).toBeUndefined();
    expect([...t.active.keys()]).toEqual(['a', 'b']);
    t.take({ t: 'alerts', set: [alert('b', 'firing')], removed: ['a'] });
    expect([...t.active.values()]).toEqual([alert('b', 'firing')]);
  });

  it('hands on a step\'s alerts to tell together, at its last message, in order, with their pending ids', () => {
    const t = new ToldAlerts();
    expect(t.take({ t: 'tell', alerts: [alert('a', 'firing')], pending: [null], last: true })).toEqual({ alerts: [alert('a', 'firing')], pending: [undefined] });
    expect(t.take({ t: 'tell', alerts: [alert('c', 'firing')], pending: [7], last: false })).toBeUndefined();
    expect(t.take({ t: 'tell', alerts: [alert('d', 'resolved')], pending: [8], last: true })).toEqual({ alerts: [alert('c', 'firing'), alert('d', 'resolved')], pending: [7, 8] });
    // The next step starts afresh.
    expect(t.take({ t: 'tell', alerts: [alert('e', 'firing')], pending: [null], last: true })).toEqual({ alerts: [alert('e', 'firing')], pending: [undefined] });
  });

  it('tells an alert named by its fingerprint as the step just set it, and skips one it does not hold', () => {
    const t = new ToldAlerts();
    t.take({ t: 'alerts', set: [alert('b', 'firing')], removed: [] });
    expect(t.take({ t: 'tell', alerts: ['b', 'gone', alert('c', 'firing')], pending: [3, 4, null], last: true })).toEqual({ alerts: [alert('b', 'firing'), alert('c', 'firing')], pending: [3, undefined] });
  });
});
