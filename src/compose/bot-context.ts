import type { Alert } from '../alerts/alert';
import { parseSilence } from '../http/api';
import { closedAt, closedMessage, type Closures } from '../http/closed-since';
import { closedNetworks, firingByExchange, summarize, type ExchangeInput } from '../http/state-view';
import type { BotContext } from '../notify/registry';
import type { StoredSilences } from './silences';

/** What the daemon has that a chat bot's commands read: the status page's sources and the API's silences. */
export interface BotSources {
  now(): number;
  stateDir: string;
  /** Brings the exchanges' snapshots up to date (they are the poll thread's) before a command reads them. */
  refresh(): Promise<void>;
  exchanges(): ExchangeInput[];
  alerts(): Iterable<Alert>;
  /** When a network closed, as the views keep it (Views.closures). */
  closures(exchange: string, coin: string, network: string): Closures | undefined;
  /** The API's silences: list (kept ones), save (stored, then in force); save throws when the store cannot be written. */
  silences: StoredSilences;
  onIgnored(receiver: string, reason: string): void;
}

/**
 * The BotContext of the Telegram receiver (notify/telegram/bot-context.ts) over the daemon's
 * parts: /status from the same summaries as /api/v1/state, /closed from the snapshots and the
 * closure times the status page reads (kept by the views, no query per command), silences
 * through the API's own validation (parseSilence) and store.
 */
export function botContext(src: BotSources): BotContext {
  return {
    now: () => src.now(),
    stateDir: src.stateDir,
    refresh: () => src.refresh(),
    status() {
      const alerts = [...src.alerts()];
      const firing = firingByExchange(alerts);
      const exchanges = src.exchanges().map((e) => {
        const summary = summarize(e, firing);
        let closed = 0;
        for (const _ of closedNetworks(e.snapshot)) closed += 1;
        const poll = e.polls.coins;
        const lastError = poll !== null && !poll.ok ? (poll.error ?? poll.kind) : undefined;
        return { name: e.name, up: e.up, coins: summary.coins, networks: summary.networks, closed, firing: summary.alertsFiring, lastPollAt: poll?.at ?? null, lastError };
      });
      return { exchanges, firing: alerts.filter((a) => a.status === 'firing').length };
    },
    closed(coin) {
      const wanted = coin?.toUpperCase();
      const rows = [];
      for (const e of src.exchanges()) {
        for (const { coin: c, n } of closedNetworks(e.snapshot)) {
          if (wanted !== undefined && c.toUpperCase() !== wanted) continue;
          rows.push({
            exchange: e.name, coin: c, network: n.network, deposit: n.depositEnable, withdraw: n.withdrawEnable,
            since: closedAt(n, src.closures(e.name, c, n.network)), message: closedMessage(n),
          });
        }
      }
      return rows.sort((a, b) => (b.since ?? -1) - (a.since ?? -1));
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
