import { alertLevel, groupLevel, severityLevel, SEVERITY_SCALES } from '../../src/notify/kit/severity';
import type { Notification, NotifiedAlert } from '../../src/notify/notifier';

function alert(severity: string | undefined, status: 'firing' | 'resolved' = 'firing'): NotifiedAlert {
  return {
    status, labels: severity === undefined ? {} : { severity }, annotations: {}, startsAt: '2026-01-02T03:04:05Z', endsAt: '0001-01-01T00:00:00Z', generatorURL: '', fingerprint: severity ?? 'none',
  };
}

function group(...alerts: NotifiedAlert[]): Notification {
  return {
    version: '4', groupKey: 'g', truncatedAlerts: 0, status: 'firing', receiver: 'r', groupLabels: {}, commonLabels: {}, commonAnnotations: {}, externalURL: '', alerts,
  };
}

describe('severity scales: each receiver reads its own row of one table', () => {
  it.each([
    ['ntfy', 'critical', 5], ['ntfy', 'info', 2], ['ntfy', 'page', 3], ['ntfy', 'Critical', 3],
    ['gotify', 'critical', 8], ['gotify', 'warning', 5], ['gotify', undefined, 5],
    ['pushover', 'critical', 2], ['pushover', 'Critical', 2], ['pushover', 'info', -1], ['pushover', 'page', 0],
  ] as const)('%s: severity %s is %s', (kind, severity, level) => {
    expect(severityLevel(SEVERITY_SCALES[kind], severity)).toBe(level);
  });

  it.each([
    ['critical', 'critical'], ['WARN', 'warning'], ['page', 'critical'], ['low', 'info'], ['whatever', 'warning'], [undefined, 'warning'],
  ] as const)('PagerDuty: severity %s is %s', (severity, level) => {
    expect(severityLevel(SEVERITY_SCALES.pagerduty, severity)).toBe(level);
  });

  it('a resolved alert has the level of a resolution', () => {
    expect(alertLevel(SEVERITY_SCALES.ntfy, alert('critical', 'resolved'))).toBe(2);
    expect(alertLevel(SEVERITY_SCALES.mark, alert('critical', 'resolved'))).toBe('✅');
    expect(alertLevel(SEVERITY_SCALES.discordColour, alert('error'))).toBe(0xf46036);
  });

  it('a group takes the highest level of its firing alerts, a severity outside the four ranking as `other`', () => {
    expect(groupLevel(SEVERITY_SCALES.gotify, group(alert('info'), alert('page')))).toBe(5);
    expect(groupLevel(SEVERITY_SCALES.ntfy, group(alert('info'), alert('critical', 'resolved')))).toBe(2);
    expect(groupLevel(SEVERITY_SCALES.ntfy, group(alert('critical', 'resolved')))).toBe(2);
  });

  it('a group\'s mark is its most severe alert\'s of the four, `other` only when none is one of them', () => {
    expect(groupLevel(SEVERITY_SCALES.mark, group(alert('page'), alert('info')))).toBe('🔵');
    expect(groupLevel(SEVERITY_SCALES.mark, group(alert('page')))).toBe('⚪');
    expect(groupLevel(SEVERITY_SCALES.mark, group(alert('warning'), alert('error')))).toBe('🟠');
  });
});
