/**
 * What the bot's commands read of, and ask of, the running daemon. The composition root
 * provides it (src/runtime/bot-context.ts, from the same sources as the status page and the
 * silences API); a receiver folder imports nothing outside notify/ and lib/, so the shapes are
 * written here and the daemon's own types fit them (a silence is alerts/silence.ts's own, through
 * notify/plugin.ts).
 */
import type { Silence } from '../plugin';

/** One exchange as /status shows it. */
export interface BotExchange {
  name: string;
  up: boolean;
  coins: number;
  networks: number;
  /** Networks with deposits or withdrawals closed. */
  closed: number;
  firing: number;
  /** RFC 3339, the last poll of the coins endpoint; null before the first. */
  lastPollAt: string | null;
  /** Why the last poll failed, when it did. */
  lastError?: string | undefined;
}

export interface BotStatus {
  exchanges: BotExchange[];
  /** Alerts firing, every exchange. */
  firing: number;
}

/** A network with deposits or withdrawals closed. */
export interface ClosedNetwork {
  exchange: string;
  coin: string;
  network: string;
  /** Whether each direction is open. */
  deposit: boolean;
  withdraw: boolean;
  /** When it last closed (ms), as far as the kept history knows; null before it. */
  since: number | null;
  /** The exchange's message for the closed direction(s). */
  message: string | null;
}

/** A maintenance window as /notices shows it: ongoing, or scheduled ahead. */
export interface NoticeWindow {
  exchange: string;
  title: string;
  state: 'ongoing' | 'scheduled';
  /** ms */
  begins: number;
  /** ms; null when unknown. */
  ends: number | null;
  /** The coins it names. */
  coins: string[];
  url: string | null;
}

/** An announcement as /notices shows it. */
export interface NoticeAnnouncement {
  exchange: string;
  /** listing, delisting, maintenance, other. */
  kind: string;
  title: string;
  /** ms */
  published: number;
  /** The coins it names. */
  coins: string[];
  url: string | null;
}

/** What /notices shows: every watched exchange's windows ongoing then scheduled, and the last week's announcements, newest first. */
export interface BotNotices {
  windows: NoticeWindow[];
  announcements: NoticeAnnouncement[];
}

/** A new silence in the API's body (POST /api/v1/silences): Alertmanager's matchers, times in ms. */
export interface SilenceRequest {
  matchers: { name: string; value: string; isRegex: boolean; isEqual: boolean }[];
  endsAt: number;
  comment: string;
  createdBy: string;
}

/**
 * Why an update was not acted on (the `reason` of spotwatch_bot_updates_ignored_total): from
 * another chat, too old (a command sent, or a button pressed, while spotwatch was down), or from
 * someone `allowed_users` does not list (refused).
 */
export type IgnoredReason = 'other_chat' | 'stale' | 'not_allowed';

export interface BotContext {
  now(): number;
  /** The system's wall clock, stepped or not, to compare with Telegram's message dates (absent: `now`). */
  wall?(): number;
  /** The daemon's state_dir: where the bot keeps its getUpdates offset across restarts. */
  readonly stateDir: string;
  /** Brings what status(), closed() and notices() read up to date; called before a command is answered. */
  refresh?(): Promise<void>;
  status(): BotStatus;
  /** Closed networks, newest closure first; only `coin`'s when given (any case). */
  closed(coin?: string): ClosedNetwork[];
  /** The windows ongoing and upcoming and the last week's announcements; only those naming `coin` when given (any case). */
  notices(coin?: string): BotNotices;
  silences: {
    /** As GET /api/v1/silences lists them (expired ones too, for a while). */
    list(): Silence[];
    /** Validated and saved as POST /api/v1/silences does; the silence, or what is wrong with it. */
    create(request: SilenceRequest): Silence | string;
    /** Ends a silence now, as DELETE /api/v1/silences/ID does; false when there is no such silence. */
    expire(id: string): boolean;
  };
  /** An update not answered: counted, per receiver and reason. */
  ignored(receiver: string, reason: IgnoredReason): void;
}

/** What the daemon passes a receiver kind beside its edges (ReceiverDeps): absent in test-notify. */
export interface BotDeps {
  bot?: BotContext | undefined;
}

/** Where a bot keeps the offset of its next getUpdates (the first update not yet taken). */
export interface OffsetStore {
  load(): number | undefined;
  save(offset: number): void;
}
