/** What getUpdates brings (the Bot API's Update, User, Chat, Message, CallbackQuery): only the fields the bot reads. */

export interface TgUser {
  id: number;
  is_bot: boolean;
  first_name?: string;
  username?: string;
}

export interface TgChat {
  id: number;
  type?: string;
  username?: string;
  title?: string;
}

export interface TgMessage {
  message_id: number;
  /** Unix time, seconds. */
  date: number;
  chat: TgChat;
  from?: TgUser;
  /** Who the message speaks for when not its sender: the group itself (an anonymous admin, `from` then being GroupAnonymousBot) or a channel. */
  sender_chat?: TgChat;
  text?: string;
  /** The text's formatting (MessageEntity), as Telegram parsed it: kept when the bot edits its own message. */
  entities?: unknown[];
  message_thread_id?: number;
}

export interface TgUpdate {
  update_id: number;
  message?: TgMessage;
  /** A press of an inline button (callbacks.ts). */
  callback_query?: TgCallbackQuery;
}

/** A CallbackQuery: `message.date` 0 is an InaccessibleMessage (too old to be shown to the bot). */
export interface TgCallbackQuery {
  id: string;
  from: TgUser;
  message?: TgMessage;
  data?: string;
}
