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
