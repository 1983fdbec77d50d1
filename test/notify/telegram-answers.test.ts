import type { BotContext, BotNotices, ClosedNetwork } from '../../src/notify/telegram/bot-context';
import type { Silence } from '../../src/alerts/silence';
import { parseSilence } from '../../src/alerts/silence-request';
import { answer, HELP, parseCommand } from '../../src/notify/telegram/commands';
import { describeMatcher } from '../../src/notify/telegram/silence-command';
import { fixedContext, NOW } from './telegram-context';

const HOUR = 3_600_000;
const ADA = { id: 42, is_bot: false, first_name: 'Ada', username: 'ada' };

const run = (text: string, ctx: BotContext): string => {
  const cmd = parseCommand(text, 'SpotwatchBot');
  if (cmd === undefined) throw new Error(`not a command: ${text}`);
  return answer(cmd, ctx, { from: ADA });
};

describe('bot commands', () => {
  it.each([
    ['/status', { name: 'status', args: '' }],
    ['/status@SpotwatchBot', { name: 'status', args: '' }],
    ['/STATUS@spotwatchbot  extra words ', { name: 'status', args: 'extra words' }],
    ['/closed usdt', { name: 'closed', args: 'usdt' }],
    ['/status@OtherBot', undefined],
    ['status', undefined],
    ['hello /status', undefined],
  ])('%s is read as %j', (text, cmd) => {
    expect(parseCommand(text, 'SpotwatchBot')).toEqual(cmd);
  });

  it('/status: exchanges, health, firing count', () => {
    expect(run('/status', fixedContext().ctx)).toBe([
      '2 exchanges · 3 alerts firing',
      'main: ✅ up · 40 coins · 62 networks, 2 closed · 3 firing · polled 12s ago',
      'binance: ❌ DOWN (timeout: no answer within 5000 ms) · 0 coins · 0 networks, 0 closed · 0 firing · not polled yet',
    ].join('\n'));
  });

  it('/closed [COIN]: closed networks, since when, the exchange\'s message (defused)', () => {
    const closed: ClosedNetwork[] = [
      { exchange: 'main', coin: 'USDT', network: 'Tron(TRC20)', deposit: true, withdraw: false, since: NOW - 2 * HOUR - 5 * 60_000, message: 'Wallet upgrade, ask @support /help' },
      { exchange: 'main', coin: 'BTC', network: 'BTC', deposit: false, withdraw: false, since: null, message: null },
    ];
    const { ctx } = fixedContext({ closed });
    expect(run('/closed usdt', ctx)).toBe('1 closed network of usdt, newest first:\nUSDT · Tron(TRC20) · main: withdrawals closed since 2026-01-02 09:55 UTC (2h 5m)\n   “Wallet upgrade, ask @\u2060support /\u2060help”');
    expect(run('/closed', ctx).split('\n')[3]).toBe('BTC · BTC · main: deposits and withdrawals closed since before the kept history');
    expect(run('/closed DOGE', ctx)).toBe('No network of DOGE is closed.');
  });

  it('/closed in a storm: as many as fit, the rest counted', () => {
    const closed = Array.from({ length: 3000 }, (_, i): ClosedNetwork => ({ exchange: 'main', coin: `C${i}`, network: 'N', deposit: false, withdraw: true, since: NOW - 60_000, message: 'Maintenance' }));
    const reply = run('/closed', fixedContext({ closed }).ctx);
    expect(reply.length).toBeLessThanOrEqual(4096);
    expect(reply).toMatch(/\n…and \d+ more networks \(the status page lists them all\)$/);
  });

  it('/silence MATCHER... DURATION [comment]: the API\'s silence, in Alertmanager\'s matchers', () => {
    const { ctx, requests } = fixedContext();
    expect(run('/silence coin=USDT network!=TRX symbol=~"BTC.*" 2h wallet upgrade', ctx)).toBe(
      'Silenced coin=USDT network!=TRX symbol=~BTC.* until 2026-01-02 14:00 UTC (2h). ID 3f2a9c1b: /unsilence 3f2a9c1b ends it.',
    );
    expect(requests).toEqual([{
      matchers: [
        { name: 'coin', value: 'USDT', isRegex: false, isEqual: true },
        { name: 'network', value: 'TRX', isRegex: false, isEqual: false },
        { name: 'symbol', value: 'BTC.*', isRegex: true, isEqual: true },
      ],
      endsAt: NOW + 2 * HOUR,
      comment: 'wallet upgrade',
      createdBy: 'telegram:@ada',
    }]);
  });

  it.each([
    ['/silence 2h', 'Not silenced: give at least one matcher such as coin=USDT.\nUsage: /silence MATCHER... DURATION [comment], e.g. /silence coin=USDT network=TRX 2h wallet upgrade'],
    ['/silence coin=USDT forever', 'Not silenced: after the matchers, give how long, such as 30m, 2h or 1d.\nUsage: /silence MATCHER... DURATION [comment], e.g. /silence coin=USDT network=TRX 2h wallet upgrade'],
    ['/silence coin=USDT 0', 'Not silenced: after the matchers, give how long, such as 30m, 2h or 1d.\nUsage: /silence MATCHER... DURATION [comment], e.g. /silence coin=USDT network=TRX 2h wallet upgrade'],
  ])('%s is refused with the usage', (text, reply) => {
    expect(run(text, fixedContext().ctx)).toBe(reply);
  });

  it('/silence is refused, as the API refuses it, when its matchers would mute every alert', () => {
    const { ctx } = fixedContext();
    const validated: BotContext = { ...ctx, silences: { ...ctx.silences, create: (request) => parseSilence(request, NOW) } };
    expect(run('/silence alertname=~".*" 2h everything', validated)).toBe('Not silenced: matchers: at least one matcher must not match the empty string (a silence whose matchers all match every value would mute every alert)');
    expect(run('/silence alertname=~".*" severity=~".*" 2h', validated)).toBe('Not silenced: matchers: at least one matcher must not match the empty string (a silence whose matchers all match every value would mute every alert)');
    expect(run('/silence coin="" exchange=main 2h', validated)).toBe('Not silenced: matchers: coin: empty value (an empty pattern is an error)');
    expect(run('/silence alertname=~".*" coin=USDT 2h', validated)).toMatch(/^Silenced alertname=~\.\* coin=USDT until 2026-01-02 14:00 UTC \(2h\)\. ID [0-9a-f]{8}: \/unsilence [0-9a-f]{8} ends it\.$/);
  });

  it('/silence passes on what the API\'s validation says', () => {
    expect(run('/silence coin=USDT 400d', fixedContext({ refuse: 'a silence lasts at most 366 days' }).ctx)).toBe('Not silenced: a silence lasts at most 366 days');
  });

  it('/silences and /unsilence ID (or the start of one no other shares)', () => {
    const silence = (id: string, endsAt: number, startsAt = NOW - HOUR): Silence => ({ id, matchers: [{ label: 'coin', pattern: '/USDT/' }, { label: 'network', pattern: '!/Tron\\(TRC20\\)/' }], startsAt, endsAt, comment: 'upgrade', createdBy: 'telegram:@ada' });
    const list = [silence('aaaa1111-x', NOW + HOUR), silence('aaaa2222-y', NOW + 2 * HOUR, NOW + HOUR), silence('bbbb3333-z', NOW - 1)];
    const { ctx, expired } = fixedContext({ silences: list });
    expect(run('/silences', ctx)).toBe([
      '2 silences:',
      'aaaa1111 coin=USDT network!=Tron(TRC20) · until 2026-01-02 13:00 UTC (1h left) · upgrade · by telegram:@\u2060ada',
      'aaaa2222 coin=USDT network!=Tron(TRC20) · from 2026-01-02 13:00 UTC until 2026-01-02 14:00 UTC · upgrade · by telegram:@\u2060ada',
    ].join('\n'));
    expect(run('/unsilence aaaa', ctx)).toBe('2 silences start with aaaa: give more of the ID.');
    expect(run('/unsilence bbbb3333', ctx)).toBe('No silence bbbb3333 is active. /silences lists them.');
    expect(run('/unsilence aaaa2', ctx)).toBe('Silence aaaa2222 (coin=USDT network!=Tron(TRC20)) ended.');
    expect(expired).toEqual(['aaaa2222-y']);
    expect(run('/unsilence', ctx)).toBe('Usage: /unsilence ID (/silences lists them)');
  });

  it('with allowed_users, only they may /silence and /unsilence; anyone else is refused politely and nothing changes; anyone may read', () => {
    const list: Silence[] = [{ id: 'aaaa1111-x', matchers: [{ label: 'coin', pattern: '/USDT/' }], startsAt: NOW - HOUR, endsAt: NOW + HOUR, comment: '', createdBy: 'telegram:@ada' }];
    const { ctx, requests, expired } = fixedContext({ silences: list });
    const bob = { id: 7, is_bot: false, first_name: 'Bob' };
    const as = (text: string, from: typeof bob | typeof ADA, allowed?: number[]) => answer(parseCommand(text, 'SpotwatchBot') ?? { name: '', args: '' }, ctx, { from }, allowed);
    expect(as('/silence coin=USDT 2h', bob, [42])).toBe("Sorry, only the people this bot's allowed_users lists may run /silence. Your Telegram id is 7: ask whoever runs spotwatch to add it.");
    expect(as('/unsilence aaaa1111', bob, [42])).toBe("Sorry, only the people this bot's allowed_users lists may run /unsilence. Your Telegram id is 7: ask whoever runs spotwatch to add it.");
    expect(requests).toEqual([]);
    expect(expired).toEqual([]);
    expect(as('/silences', bob, [42]).split('\n')[0]).toBe('1 silence:');
    expect(as('/status', bob, [42]).split('\n')[0]).toBe('2 exchanges · 3 alerts firing');
    expect(as('/silence coin=USDT 2h', ADA, [42])).toMatch(/^Silenced coin=USDT until 2026-01-02 14:00 UTC \(2h\)\. ID 3f2a9c1b/);
    expect(as('/unsilence aaaa1111', ADA, [7, 42])).toBe('Silence aaaa1111 (coin=USDT) ended.');
    expect(requests.map((r) => r.createdBy)).toEqual(['telegram:@ada']);
    expect(expired).toEqual(['aaaa1111-x']);
  });

  it('an anonymous admin (speaking as the group) may change silences without allowed_users, and is asked to speak as themselves with it', () => {
    const { ctx, requests } = fixedContext();
    const anonymous = { from: { id: 1087968824, is_bot: true, first_name: 'Group', username: 'GroupAnonymousBot' }, as: { id: -1001234567890, type: 'supergroup', title: 'Desk <b>@everyone</b>' } };
    const cmd = parseCommand('/silence coin=USDT 2h', 'SpotwatchBot') ?? { name: '', args: '' };
    expect(answer(cmd, ctx, anonymous, [1087968824])).toBe("Sorry, only the people this bot's allowed_users lists may run /silence, and this came anonymously: send it as yourself.");
    expect(requests).toEqual([]);
    expect(answer(cmd, ctx, anonymous)).toMatch(/^Silenced coin=USDT until /);
    expect(requests.map((r) => r.createdBy)).toEqual(['telegram:Desk <b>@\u2060everyone</b> (anonymous)']);
  });

  const NOTICES: BotNotices = {
    windows: [
      { exchange: 'bybit', title: 'Tether (USDT) wallet <maintenance>\nask @support', state: 'ongoing', begins: NOW - HOUR, ends: NOW + 2 * HOUR, coins: ['USDT'], url: 'https://status.test/w1' },
      { exchange: 'okx', title: 'System upgrade /help', state: 'scheduled', begins: NOW + 90 * 60_000, ends: null, coins: [], url: null },
    ],
    announcements: [
      { exchange: 'bybit', kind: 'delisting', title: 'Will Delist Tether (USDT) & <ETH>', published: NOW - 3 * HOUR, coins: ['USDT', 'ETH'], url: 'https://ann.test/7' },
      { exchange: 'okx', kind: 'listing', title: 'New listing: Dogecoin (DOGE)', published: NOW - 50 * HOUR, coins: ['DOGE'], url: null },
    ],
  };

  it('/notices [COIN]: windows ongoing and upcoming, the week\'s announcements, upstream text defused', () => {
    const { ctx } = fixedContext({ notices: NOTICES });
    expect(run('/notices', ctx)).toBe([
      'Maintenance: 1 ongoing, 1 upcoming',
      '🔧 bybit · ongoing since 2026-01-02 11:00 UTC, until 2026-01-02 14:00 UTC',
      '   “Tether (USDT) wallet <maintenance> ask @\u2060support” https://status.test/w1',
      '🔧 okx · in 1h 30m: 2026-01-02 13:30 UTC, end unknown',
      '   “System upgrade /\u2060help”',
      'Announcements in the last 7 days: 2, newest first',
      '📢 bybit · delisting · 2026-01-02 09:00 UTC (3h ago)',
      '   “Will Delist Tether (USDT) & <ETH>” https://ann.test/7',
      '📢 okx · listing · 2025-12-31 10:00 UTC (2d 2h ago)',
      '   “New listing: Dogecoin (DOGE)”',
    ].join('\n'));
    expect(run('/notices eth', ctx)).toBe([
      'Maintenance naming eth: 0 ongoing, 0 upcoming',
      'Announcements naming eth in the last 7 days: 1, newest first',
      '📢 bybit · delisting · 2026-01-02 09:00 UTC (3h ago)',
      '   “Will Delist Tether (USDT) & <ETH>” https://ann.test/7',
    ].join('\n'));
    expect(run('/notices BTC', ctx)).toBe('No maintenance window naming BTC is ongoing or upcoming, and no announcement naming BTC in the last 7 days.');
    expect(run('/notices', fixedContext().ctx)).toBe('No maintenance window is ongoing or upcoming, and no announcement in the last 7 days.');
  });

  it('/notices with thousands of announcements: as many as fit, the rest counted', () => {
    const announcements = Array.from({ length: 2000 }, (_, i) => ({ exchange: 'main', kind: 'other', title: `Notice ${i}`, published: NOW - i * 60_000, coins: [], url: null }));
    const reply = run('/notices', fixedContext({ notices: { windows: [], announcements } }).ctx);
    expect(reply.length).toBeLessThanOrEqual(4096);
    expect(reply).toMatch(/\n…and \d+ more notices \(GET \/api\/v1\/notices lists them all\)$/);
  });

  it('/help and /start list the commands; anything else points to /help', () => {
    expect(HELP.split('\n')).toContain('/notices [COIN]: maintenance ongoing and upcoming, the last week\'s announcements');
    expect(run('/help', fixedContext().ctx)).toBe(HELP);
    expect(run('/start', fixedContext().ctx)).toBe(HELP);
    expect(run('/frobnicate', fixedContext().ctx)).toBe('Unknown command /frobnicate. /help lists the commands.');
  });

  it.each([
    [{ label: 'coin', pattern: '/USDT/' }, 'coin=USDT'],
    [{ label: 'coin', pattern: '!/USDT/' }, 'coin!=USDT'],
    [{ label: 'coin', pattern: '/USD.*/' }, 'coin=~USD.*'],
    [{ label: 'coin', pattern: '!/USD.*/' }, 'coin!~USD.*'],
    [{ label: 'coin', pattern: 'USD*' }, 'coin=USD*'],
  ])('a stored matcher %j reads %s', (m, text) => {
    expect(describeMatcher(m)).toBe(text);
  });
});
