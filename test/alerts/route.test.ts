import { compileRoutes, groupLabels, routesFor, type RouteSpec } from '../../src/alerts/route';

const S = 1000;
const defaults = { receivers: ['hook', 'am'], group_by: ['exchange', 'alertname'], group_wait: 10 * S, group_interval: 60 * S, repeat_interval: 3_600 * S };

/** pager on every critical alert (and on), chat and Alertmanager for USD coins, hook for the rest of main. */
const compiled = compileRoutes(
  [
    { match: { severity: 'critical' }, receivers: ['pager'], continue: true },
    { match: { coin: 'USD*' }, receivers: ['chat', 'am'], continue: false, group_by: ['coin'], group_wait: 0 },
    { match: { exchange: 'main' }, receivers: ['hook'], continue: false, repeat_interval: 60 * S },
  ],
  defaults,
  new Map([['am', 30 * S]]),
);

/** A route part as one line: its id, receivers, grouping and timers (in seconds). */
function line(r: RouteSpec): string {
  const timers = `wait ${r.groupWaitMs / S} interval ${r.groupIntervalMs / S} repeat ${r.repeatIntervalMs / S}`;
  return `${r.id} -> ${r.receivers.join(',')} by [${r.groupBy.join(',')}] ${timers}${r.immediate ? ' immediate' : ''}`;
}

describe('routesFor', () => {
  it.each<{ name: string; labels: Record<string, string>; parts: string[] }>([
    {
      name: 'a critical USD coin: the pager route continues to the coin route, whose Alertmanager part is its own',
      labels: { severity: 'critical', exchange: 'main', coin: 'USDT' },
      parts: [
        '{}/0 -> pager by [exchange,alertname] wait 10 interval 60 repeat 3600',
        '{}/1 -> chat by [coin] wait 0 interval 60 repeat 3600',
        '{}/1/am -> am by [...] wait 0 interval 30 repeat 30 immediate',
      ],
    },
    {
      name: 'a critical other coin on main: pager, then the first later route that matches',
      labels: { severity: 'critical', exchange: 'main', coin: 'BTC' },
      parts: ['{}/0 -> pager by [exchange,alertname] wait 10 interval 60 repeat 3600', '{}/2 -> hook by [exchange,alertname] wait 10 interval 60 repeat 60'],
    },
    {
      name: 'a critical alert that only the continuing route matches: that route alone, not the root',
      labels: { severity: 'critical', exchange: 'backup', coin: 'BTC' },
      parts: ['{}/0 -> pager by [exchange,alertname] wait 10 interval 60 repeat 3600'],
    },
    {
      name: 'a USD coin that is not critical: the coin route stops the search (no continue)',
      labels: { severity: 'warning', exchange: 'main', coin: 'USDC' },
      parts: ['{}/1 -> chat by [coin] wait 0 interval 60 repeat 3600', '{}/1/am -> am by [...] wait 0 interval 30 repeat 30 immediate'],
    },
    {
      name: 'an alert no route matches: the root, every receiver, Alertmanager apart',
      labels: { severity: 'warning', exchange: 'backup', coin: 'BTC' },
      parts: ['{} -> hook by [exchange,alertname] wait 10 interval 60 repeat 3600', '{}/am -> am by [...] wait 0 interval 30 repeat 30 immediate'],
    },
    {
      name: 'a missing label matches no pattern: an alert without coin skips the coin route',
      labels: { severity: 'warning', exchange: 'main' },
      parts: ['{}/2 -> hook by [exchange,alertname] wait 10 interval 60 repeat 60'],
    },
  ])('$name', ({ labels, parts }) => {
    expect(routesFor(labels, compiled).map(line)).toEqual(parts);
  });

  it('with no routes at all, every alert takes the root', () => {
    const none = compileRoutes([], { ...defaults, receivers: ['hook'] });
    expect(routesFor({ alertname: 'X' }, none).map(line)).toEqual(['{} -> hook by [exchange,alertname] wait 10 interval 60 repeat 3600']);
  });
});

describe('groupLabels', () => {
  it.each<{ groupBy: string[]; labels: Record<string, string>; expected: Record<string, string> }>([
    { groupBy: ['exchange', 'alertname'], labels: { alertname: 'W', exchange: 'main', coin: 'BTC' }, expected: { exchange: 'main', alertname: 'W' } },
    { groupBy: ['exchange', 'coin'], labels: { alertname: 'W', exchange: 'main' }, expected: { exchange: 'main' } },
    { groupBy: ['...'], labels: { alertname: 'W', exchange: 'main', coin: 'BTC' }, expected: { alertname: 'W', exchange: 'main', coin: 'BTC' } },
    { groupBy: [], labels: { alertname: 'W' }, expected: {} },
  ])('groups $labels by $groupBy as $expected', ({ groupBy, labels, expected }) => {
    expect(groupLabels(labels, groupBy)).toStrictEqual(expected);
  });
});
