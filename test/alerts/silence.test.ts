import { windowActive, type MaintenanceWindow } from '../../src/alerts/silence';

/** `HH:MM-HH:MM` on `days` (0 = Sunday), in `timeZone`. */
function window(hours: string, days: number[], timeZone = 'UTC'): MaintenanceWindow {
  const [start, end] = hours.split('-').map((hm) => {
    const [h, m] = hm.split(':').map(Number);
    return (h as number) * 60 + (m as number);
  });
  return { name: 'w', matchers: [], weekdays: days, startMinute: start as number, endMinute: end as number, timeZone };
}

const MON = 1;
const FRI = 5;

describe('windowActive', () => {
  // 2024-01-01 was a Monday; 2024-01-05 a Friday.
  it.each<[string, MaintenanceWindow, string, boolean]>([
    ['before the start', window('02:00-04:00', []), '2024-01-01T01:59:59Z', false],
    ['at the start', window('02:00-04:00', []), '2024-01-01T02:00:00Z', true],
    ['within', window('02:00-04:00', []), '2024-01-01T03:59:59Z', true],
    ['at the end (excluded)', window('02:00-04:00', []), '2024-01-01T04:00:00Z', false],
    ['a start equal to the end: never', window('02:00-02:00', []), '2024-01-01T02:00:00Z', false],
    ['on a listed weekday', window('02:00-04:00', [MON]), '2024-01-01T03:00:00Z', true],
    ['on another weekday', window('02:00-04:00', [MON]), '2024-01-02T03:00:00Z', false],
    ['across midnight: the evening of a listed day', window('22:00-02:00', [FRI]), '2024-01-05T23:00:00Z', true],
    ['across midnight: the small hours after a listed day', window('22:00-02:00', [FRI]), '2024-01-06T01:59:00Z', true],
    ['across midnight: the end, the day after', window('22:00-02:00', [FRI]), '2024-01-06T02:00:00Z', false],
    ['across midnight: the evening of the day after a listed day', window('22:00-02:00', [FRI]), '2024-01-06T23:00:00Z', false],
    ['across midnight: the small hours of a listed day belong to the day before', window('22:00-02:00', [FRI]), '2024-01-05T01:00:00Z', false],
    ['in the window\'s time zone (UTC+5:30)', window('09:00-10:00', [], 'Asia/Kolkata'), '2024-01-01T03:30:00Z', true],
    ['in the window\'s time zone, at its end', window('09:00-10:00', [], 'Asia/Kolkata'), '2024-01-01T04:30:00Z', false],
    ['local time in winter (UTC+1)', window('02:00-03:00', [], 'Europe/Berlin'), '2024-01-01T01:30:00Z', true],
    ['local time in summer (UTC+2)', window('02:00-03:00', [], 'Europe/Berlin'), '2024-07-01T00:30:00Z', true],
    ['the same UTC time in winter is outside', window('02:00-03:00', [], 'Europe/Berlin'), '2024-01-01T00:30:00Z', false],
    ['the local weekday, not the UTC one (Monday in Auckland, Sunday in UTC)', window('08:00-09:00', [MON], 'Pacific/Auckland'), '2023-12-31T19:30:00Z', true],
  ])('%s', (_what, w, at, active) => {
    expect(windowActive(w, Date.parse(at))).toBe(active);
  });
});
