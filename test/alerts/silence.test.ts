import { configSilences, maintenanceWindows, Muter, windowActive, type MaintenanceWindow } from '../../src/alerts/silence';

const at = (iso: string): number => Date.parse(iso);

describe('maintenanceWindows and configSilences: the config\'s sections as the muter takes them', () => {
  it('turns weekdays into numbers and HH:MM into minutes after midnight', () => {
    expect(maintenanceWindows([{ name: 'nightly', matchers: { exchange: 'main' }, weekdays: ['mon', 'sun'], start: '23:30', end: '01:15', time_zone: 'Europe/Berlin' }])).toEqual([
      { name: 'nightly', matchers: [{ label: 'exchange', pattern: 'main' }], weekdays: [1, 0], startMinute: 1410, endMinute: 75, timeZone: 'Europe/Berlin' },
    ]);
  });

  it('gives each silence of the config an id of its own', () => {
    expect(configSilences([{ matchers: { coin: 'USDT' }, starts_at: '2026-01-01T00:00:00Z', ends_at: '2026-01-02T00:00:00+01:00', comment: 'known' }])).toEqual([
      { id: 'config-0', matchers: [{ label: 'coin', pattern: 'USDT' }], startsAt: at('2026-01-01T00:00:00Z'), endsAt: at('2026-01-01T23:00:00Z'), comment: 'known', createdBy: 'config' },
    ]);
  });
});

describe('windowActive', () => {
  /** Mondays 23:30 to 01:15 in Berlin (UTC+1 in January), crossing midnight. */
  const nightly: MaintenanceWindow = { name: 'n', matchers: [], weekdays: [1], startMinute: 23 * 60 + 30, endMinute: 75, timeZone: 'Europe/Berlin' };
  const daily: MaintenanceWindow = { name: 'd', matchers: [], weekdays: [], startMinute: 9 * 60, endMinute: 10 * 60, timeZone: 'UTC' };

  it.each([
    ['Monday 23:29 Berlin: not yet', nightly, '2026-01-05T22:29:00Z', false],
    ['Monday 23:30 Berlin: the start is in', nightly, '2026-01-05T22:30:00Z', true],
    ['Tuesday 00:30 Berlin: after midnight, still Monday\'s window', nightly, '2026-01-05T23:30:00Z', true],
    ['Tuesday 01:15 Berlin: the end is out', nightly, '2026-01-06T00:15:00Z', false],
    ['Tuesday 23:45 Berlin: not on Tuesdays', nightly, '2026-01-06T22:45:00Z', false],
    ['Sunday 00:30 Berlin: Saturday had no window', nightly, '2026-01-03T23:30:00Z', false],
    ['every day (no weekdays) 09:00 UTC', daily, '2026-01-07T09:00:00Z', true],
    ['every day 10:00 UTC: the end is out', daily, '2026-01-07T10:00:00Z', false],
  ])('%s', (_name, window, when, expected) => {
    expect(windowActive(window, at(when))).toBe(expected);
  });

  /** `HH:MM-HH:MM` on `days` (0 = Sunday), in `timeZone`. */
  const window = (hours: string, days: number[], timeZone = 'UTC'): MaintenanceWindow => {
    const [start, end] = hours.split('-').map((hm) => {
      const [h, m] = hm.split(':').map(Number);
      return (h as number) * 60 + (m as number);
    });
    return { name: 'w', matchers: [], weekdays: days, startMinute: start as number, endMinute: end as number, timeZone };
  };
  const MON = 1;

  // 2024-01-01 was a Monday.
  it.each([
    ['a start equal to the end: never', window('02:00-02:00', []), '2024-01-01T02:00:00Z', false],
    ['on a listed weekday, within the hours', window('02:00-04:00', [MON]), '2024-01-01T03:59:59Z', true],
    ['the same hours on another weekday', window('02:00-04:00', [MON]), '2024-01-02T03:00:00Z', false],
    ['in the window\'s time zone (UTC+5:30)', window('09:00-10:00', [], 'Asia/Kolkata'), '2024-01-01T03:30:00Z', true],
    ['in the window\'s time zone, at its end', window('09:00-10:00', [], 'Asia/Kolkata'), '2024-01-01T04:30:00Z', false],
    ['local time in winter (UTC+1)', window('02:00-03:00', [], 'Europe/Berlin'), '2024-01-01T01:30:00Z', true],
    ['local time in summer (UTC+2)', window('02:00-03:00', [], 'Europe/Berlin'), '2024-07-01T00:30:00Z', true],
    ['the summer\'s UTC time in winter is outside', window('02:00-03:00', [], 'Europe/Berlin'), '2024-01-01T00:30:00Z', false],
    ['the local weekday, not the UTC one (Monday in Auckland, Sunday in UTC)', window('08:00-09:00', [MON], 'Pacific/Auckland'), '2023-12-31T19:30:00Z', true],
  ])('%s', (_name, w, when, expected) => {
    expect(windowActive(w, at(when))).toBe(expected);
  });

  it('mutes by a silence before a window, and says which', () => {
    const muter = new Muter();
    muter.setSilences(configSilences([{ matchers: { coin: 'USDT' }, starts_at: '2026-01-07T00:00:00Z', ends_at: '2026-01-08T00:00:00Z', comment: '' }]));
    muter.setWindows([{ ...daily, matchers: [{ label: 'coin', pattern: 'USD*' }] }]);
    expect([
      muter.mutedBy({ coin: 'USDT' }, at('2026-01-07T09:30:00Z')),
      muter.mutedBy({ coin: 'USDC' }, at('2026-01-07T09:30:00Z')),
      muter.mutedBy({ coin: 'USDC' }, at('2026-01-07T11:00:00Z')),
    ]).toEqual(['silence config-0', 'maintenance d', undefined]);
  });
});
