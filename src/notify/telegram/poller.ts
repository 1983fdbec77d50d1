/**
 * The bot's side of the chat: long-polls getUpdates (Bot API "Getting updates") and hands each
 * update to `onUpdate` once. The offset of the next update is saved before an update is
 * answered, so a restart (or a crash halfway) never answers one twice: at worst an answer is
 * lost. Telegram lets one getUpdates run per bot (another gets 409 Conflict), so one poller
 * per bot runs in a process; failures back off, a conflict is logged once and tried slowly.
 */
import type { Logger } from '../../lib/logger';
import { sleep } from '../../lib/sleep';
import type { HttpDeps } from '../kit/http-post';
import { callBot, scrub, type BotAnswer, type BotFailure, type BotTarget } from './bot-api';
import type { OffsetStore } from './bot-context';
import type { TgUpdate, TgUser } from './updates';

/** Seconds a getUpdates waits for something to happen (Telegram's long polling). */
export const LONG_POLL_SECONDS = 30;

export interface Backoff {
  /** After the first failure in a row; doubled at each next one, up to maxMs. */
  firstMs: number;
  maxMs: number;
  /** After a 409 Conflict: another program polls this bot. */
  conflictMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { firstMs: 1_000, maxMs: 60_000, conflictMs: 30_000 };

export interface PollerOptions {
  receiver: string;
  bot: BotTarget;
  http: HttpDeps;
  logger: Logger;
  offsets: OffsetStore;
  /** How long getMe may take; getUpdates gets the long poll's seconds on top. */
  timeoutMs: number;
  onUpdate(update: TgUpdate, me: TgUser, signal: AbortSignal): Promise<void>;
  longPollSeconds?: number;
  backoff?: Backoff;
}

/**
 * Bots polled in this process, by bot id. The scope is the process on purpose: Telegram allows
 * one getUpdates per bot at a time, so two receivers (or two daemons in one process) polling
 * the same bot would only take turns failing with 409.
 */
const polling = new Map<string, UpdatePoller>();

export class UpdatePoller {
  private readonly stopping = new AbortController();
  private loop: Promise<void> | undefined;
  private me: TgUser | undefined;
  private offset: number | undefined;
  /** The kind of failure last logged, so a failing streak is logged once. */
  private failing: string | undefined;

  constructor(private readonly options: PollerOptions) {}

  private get botId(): string {
    return this.options.bot.token.split(':')[0] ?? '';
  }

  /** Whether this poller takes the bot's updates (it started, and no other poller of this process had the bot). */
  get polling(): boolean {
    return this.loop !== undefined && !this.stopping.signal.aborted;
  }

  /** Starts polling, unless another poller of this process polls the same bot (then it says so). */
  start(): void {
    if (this.loop !== undefined || this.stopping.signal.aborted) return;
    const holder = polling.get(this.botId);
    if (holder !== undefined) {
      this.options.logger.warn({ receiver: this.options.receiver, answeredBy: holder.options.receiver }, 'another receiver already answers this bot\'s commands; this one only sends');
      return;
    }
    polling.set(this.botId, this);
    this.loop = this.run().finally(() => {
      if (polling.get(this.botId) === this) polling.delete(this.botId);
    });
  }

  /** Stops at once: the getUpdates in flight is abandoned (what it would bring comes again). */
  async stop(): Promise<void> {
    this.stopping.abort(new Error('stopping'));
    await this.loop;
  }

  private async run(): Promise<void> {
    const { logger, receiver } = this.options;
    let failures = 0;
    while (!this.stopping.signal.aborted) {
      let delay = 0;
      try {
        const failure = await this.round();
        if (failure === undefined) {
          if (this.failing !== undefined) logger.info({ receiver }, 'Telegram getUpdates works again');
          failures = 0;
          this.failing = undefined;
        } else {
          delay = this.delayAfter(failure, ++failures);
        }
      } catch (err) {
        if (this.stopping.signal.aborted) return;
        delay = this.delayAfter(err, ++failures);
      }
      if (delay > 0) await sleep(delay, this.stopping.signal).catch(() => undefined);
    }
  }

  /** getMe once (the bot's username addresses commands), then one getUpdates and its updates. */
  private async round(): Promise<BotFailure | undefined> {
    const { timeoutMs, logger, receiver } = this.options;
    if (this.me === undefined) {
      const me = await this.call<TgUser>('getMe', {}, timeoutMs);
      if (!me.ok) return me;
      this.me = me.result;
      logger.info({ receiver, bot: me.result.username }, 'answering commands in the chat');
    }
    this.offset ??= this.loadOffset();
    const seconds = this.options.longPollSeconds ?? LONG_POLL_SECONDS;
    const params = { ...(this.offset !== undefined && { offset: this.offset }), timeout: seconds, allowed_updates: ['message', 'callback_query'] };
    const answer = await this.call<TgUpdate[]>('getUpdates', params, seconds * 1000 + timeoutMs);
    if (!answer.ok) return answer;
    const updates = (Array.isArray(answer.result) ? answer.result : []).filter((u) => Number.isSafeInteger(u?.update_id)).sort((a, b) => a.update_id - b.update_id);
    for (const update of updates) {
      if (this.stopping.signal.aborted) return undefined;
      // Already taken (an answer that crossed a restart): never handled twice.
      if (this.offset !== undefined && update.update_id < this.offset) continue;
      this.offset = update.update_id + 1;
      this.saveOffset(this.offset);
      try {
        await this.options.onUpdate(update, this.me, this.stopping.signal);
      } catch (err) {
        if (!this.stopping.signal.aborted) logger.error({ receiver, error: scrub(String(err instanceof Error ? err.message : err), this.options.bot.token) }, 'answering a Telegram update failed');
      }
    }
    return undefined;
  }

  private call<T>(method: string, params: object, timeoutMs: number): Promise<BotAnswer<T>> {
    return callBot<T>(this.options.http, this.options.bot, method, params, timeoutMs, this.stopping.signal);
  }

  private loadOffset(): number | undefined {
    try {
      return this.options.offsets.load();
    } catch (err) {
      this.options.logger.error({ receiver: this.options.receiver, error: String(err) }, 'cannot read the Telegram offset; starting from the updates Telegram still holds');
      return undefined;
    }
  }

  private saveOffset(offset: number): void {
    try {
      this.options.offsets.save(offset);
    } catch (err) {
      // Answered anyway: after a restart this update may be answered again.
      this.options.logger.error({ receiver: this.options.receiver, error: String(err) }, 'cannot save the Telegram offset');
    }
  }

  /** How long to wait after a failure, logging the first of each kind in a row. */
  private delayAfter(failure: BotFailure | unknown, failures: number): number {
    const { logger, receiver, bot } = this.options;
    const backoff = this.options.backoff ?? DEFAULT_BACKOFF;
    const grown = Math.min(backoff.maxMs, backoff.firstMs * 2 ** Math.min(20, failures - 1));
    const f = typeof failure === 'object' && failure !== null && (failure as BotFailure).ok === false ? (failure as BotFailure) : undefined;
    const kind = f === undefined ? 'unreachable' : String(f.errorCode);
    const error = f === undefined ? scrub(failure instanceof Error ? failure.message : String(failure), bot.token) : `${f.status}: ${scrub(f.description, bot.token)}`;
    const first = this.failing !== kind;
    this.failing = kind;
    if (f?.errorCode === 409) {
      if (first) logger.warn({ receiver, error, retryInMs: backoff.conflictMs }, 'another program is polling this bot\'s updates (only one may): commands wait until it stops');
      return backoff.conflictMs;
    }
    if (f !== undefined && (f.status === 401 || f.status === 404)) {
      if (first) logger.error({ receiver, error }, 'Telegram refused the bot token: commands are off until it is fixed');
      return backoff.maxMs;
    }
    const delay = f?.retryAfterMs ?? grown;
    if (first) logger.warn({ receiver, error, retryInMs: delay }, 'Telegram getUpdates failed; will try again');
    return delay;
  }
}
