import type { BotContext, ClosedNetwork } from '../../src/notify/telegram/bot-context';
import type { Silence } from '../../src/alerts/silence';
import { answer, HELP, parseCommand } from '../../src/notify/telegram/commands';
import { describeMatcher } from '../../src/notify/telegram/silence-command';
import { fixedContext, NOW } from './telegram-context';

const HOUR = 3_600_000;
const ADA = { id: 42, is_bot: false, first_name: 'Ada', username: 'ada' };

const run = (text: string, ctx: BotContext): string => {
  const cmd = parseCommand(text, 'SpotwatchBot');
  if (cmd === undefined) throw new Error(`not a command: ${text}`);
  return answer(cmd, ctx, ADA);
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

  it('/help and /start list the commands; anything else points to /help', () => {
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
