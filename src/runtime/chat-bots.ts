import type { Alert } from '../alerts/alert';
import { parseSilence } from '../alerts/silence-request';
import { closedAt, closedMessage, type Closures } from '../http/closed-since';
import { closedNetworks, firingByExchange, summarize, type ExchangeInput } from '../http/state-view';
import { announcedSince, windowsAhead } from '../notices/ahead';
import type { NoticeLists } from '../notices/book-json';
import type { BotContext, BotNotices, BotStatus, ClosedNetwork } from '../notify/registry';
import type { StoredSilences } from './stored-silences';

/** What a chat bot's commands read: /status, /closed and /notices, as the views (on the main thread) say. */
export interface BotReads {
  status: BotStatus;
  /** Every closed network, newest closure first. */
  closed: ClosedNetwork[];
  /** Every watched exchange's windows ongoing and upcoming, and the last week's announcements. */
  notices: BotNotices;
}

/** How far back /notices lists announcements. */
const NOTICES_WEEK_MS = 7 * 86_400_000;

/** The status page's sources, as /status and /closed read them. */
export interface BotSources {
  exchanges(): ExchangeInput[];
  alerts(): Iterable<Alert>;
  /** When a network closed, as the views keep it (Views.closures). */
  closures(exchange: string, coin: string, network: string): Closures | undefined;
  /** Each watched exchange's notice lists, in the config's order. */
  notices(): Iterable<NoticeLists>;
  now(): number;
}

/**
 * /status from the same summaries as /api/v1/state, /closed from the snapshots and the closure
 * times the status page reads (kept by the views, no query per command). Made on the main
 * thread, asked for by the engine before a command is answered.
 */
export function botReads(src: BotSources): BotReads {
  const alerts = [...src.alerts()];
  const firing = firingByExchange(alerts);
  const exchanges = src.exchanges();
  const status: BotStatus = {
    exchanges: exchanges.map((e) => {
      const summary = summarize(e, firing);
      let closed = 0;
      for (const _ of closedNetworks(e.snapshot)) closed += 1;
      const poll = e.polls.coins;
      const lastError = poll !== null && !poll.ok ? (poll.error ?? poll.kind) : undefined;
      return { name: e.name, up: e.up, coins: summary.coins, networks: summary.networks, closed, firing: summary.alertsFiring, lastPollAt: poll?.at ?? null, lastError };
    }),
    firing: alerts.filter((a) => a.status === 'firing').length,
  };
  const closed: ClosedNetwork[] = [];
  for (const e of exchanges) {
    for (const { coin, n } of closedNetworks(e.snapshot)) {
      closed.push({ exchange: e.name, coin, network: n.network, deposit: n.depositEnable, withdraw: n.withdrawEnable, since: closedAt(n, src.closures(e.name, coin, n.network)), message: closedMessage(n) });
    }
  }
  return { status, closed: closed.sort((a, b) => (b.since ?? -1) - (a.since ?? -1)), notices: botNotices([...src.notices()], src.now()) };
}

/** /notices' lists: the windows ongoing and every one scheduled (notices/ahead.ts), the announcements of the last 7 days. */
export function botNotices(lists: readonly NoticeLists[], now: number): BotNotices {
  return {
    windows: windowsAhead(lists, now).map((w) => ({ exchange: w.exchange, title: w.title, state: w.state === 'ongoing' ? ('ongoing' as const) : ('scheduled' as const), begins: w.begins, ends: w.ends, coins: [...w.coins], url: w.url })),
    announcements: announcedSince(lists, now, NOTICES_WEEK_MS).map((a) => ({ exchange: a.exchange, kind: a.kind, title: a.title, published: a.published, coins: [...a.coins], url: a.url })),
  };
}

export interface BotContextSources {
  now(): number;
  /** The system's wall clock (Clock.wall): Telegram's dates are read against it. */
  wall(): number;
  stateDir: string;
  /** What /status and /closed read, fetched before each command (undefined: not answered in time). */
  reads(): Promise<BotReads | undefined>;
  /** The API's silences: list (kept ones), save (stored, then in force); save throws when the store cannot be written. */
  silences: StoredSilences;
  onIgnored(receiver: string, reason: string): void;
}

const NOTHING_READ: BotReads = { status: { exchanges: [], firing: 0 }, closed: [], notices: { windows: [], announcements: [] } };

/**
 * The BotContext of the Telegram receiver (notify/telegram/bot-context.ts) in the delivery
 * thread: /status and /closed from what the main thread's views say (fetched at `refresh`,
 * before each command), silences through the API's own validation (parseSilence) and store.
 */
export function botContext(src: BotContextSources): BotContext {
  let read: BotReads = NOTHING_READ;
  return {
    now: () => src.now(),
    wall: () => src.wall(),
    stateDir: src.stateDir,
    async refresh() {
      read = (await src.reads()) ?? read;
    },
    status: () => read.status,
    closed(coin) {
      const wanted = coin?.toUpperCase();
      return wanted === undefined ? read.closed : read.closed.filter((c) => c.coin.toUpperCase() === wanted);
    },
    notices(coin) {
      const wanted = coin?.toUpperCase();
      if (wanted === undefined) return read.notices;
      const names = (n: { coins: readonly string[] }): boolean => n.coins.some((c) => c.toUpperCase() === wanted);
      return { windows: read.notices.windows.filter(names), announcements: read.notices.announcements.filter(names) };
    },
    silences: {
      list: () => src.silences.list(),
      create(request) {
        const silence = parseSilence(request, src.now());
        if (typeof silence === 'string') return silence;
        try {
          src.silences.save(silence);
        } catch {
          return 'the state store cannot be written now; try again later';
        }
        return silence;
      },
      expire(id) {
        const found = src.silences.list().find((s) => s.id === id);
        if (found === undefined) return false;
        src.silences.save({ ...found, endsAt: Math.min(found.endsAt, src.now()) });
        return true;
      },
    },
    ignored: (receiver, reason) => src.onIgnored(receiver, reason),
  };
}
