import type { BotContext, BotNotices, ClosedNetwork, SilenceRequest } from '../../src/notify/telegram/bot-context';
import type { Silence } from '../../src/alerts/silence';
import { literalPattern } from '../../src/lib/pattern';

/** The time a fixed context lives at. */
export const NOW = Date.UTC(2026, 0, 2, 12, 0, 0);

/** A BotContext over fixed data; what the bot asks of it is recorded. */
export function fixedContext(over: { closed?: ClosedNetwork[]; notices?: BotNotices; silences?: Silence[]; refuse?: string; now?: () => number; wall?: () => number; stateDir?: string } = {}) {
  const silences = [...(over.silences ?? [])];
  const requests: SilenceRequest[] = [];
  const expired: string[] = [];
  const ignored: string[] = [];
  const ctx: BotContext = {
    now: over.now ?? (() => NOW),
    ...(over.wall !== undefined && { wall: over.wall }),
    stateDir: over.stateDir ?? '/nonexistent',
    status: () => ({
      exchanges: [
        { name: 'main', up: true, coins: 40, networks: 62, closed: 2, firing: 3, lastPollAt: new Date(NOW - 12_000).toISOString() },
        { name: 'binance', up: false, coins: 0, networks: 0, closed: 0, firing: 0, lastPollAt: null, lastError: 'timeout: no answer within 5000 ms' },
      ],
      firing: 3,
    }),
    closed: (coin) => (over.closed ?? []).filter((c) => coin === undefined || c.coin.toUpperCase() === coin.toUpperCase()),
    notices(coin) {
      const names = (n: { coins: string[] }): boolean => coin === undefined || n.coins.some((c) => c.toUpperCase() === coin.toUpperCase());
      const all = over.notices ?? { windows: [], announcements: [] };
      return { windows: all.windows.filter(names), announcements: all.announcements.filter(names) };
    },
    silences: {
      list: () => silences,
      create(request) {
        requests.push(request);
        if (over.refuse !== undefined) return over.refuse;
        const s = { id: '3f2a9c1b-0000-4000-8000-000000000001', matchers: request.matchers.map((m) => ({ label: m.name, pattern: `${m.isEqual ? '' : '!'}${m.isRegex ? `/${m.value}/` : literalPattern(m.value)}` })), startsAt: NOW, endsAt: request.endsAt, comment: request.comment, createdBy: request.createdBy };
        silences.push(s);
        return s;
      },
      expire(id) {
        expired.push(id);
        return silences.some((s) => s.id === id);
      },
    },
    ignored: (receiver, reason) => {
      ignored.push(`${receiver} ${reason}`);
    },
  };
  return { ctx, requests, expired, ignored };
}

