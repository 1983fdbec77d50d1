import type { ChatService } from '../kit/chat-webhook';
import { answerError } from '../kit/http-errors';
import { slackMessage } from './message';

/**
 * Slack: each group as one message through an incoming webhook (message.ts). Slack answers `ok`,
 * or an error as a plain-text word (`invalid_payload`, `no_service`, `channel_is_archived`...)
 * quoted in the error; a 429's `Retry-After` is honoured, other 4xx are permanent, 5xx retried.
 */
export const slackService: ChatService = {
  who: 'Slack',
  url: (webhookUrl) => new URL(webhookUrl),
  message: slackMessage,
  failure: (answer, now, secrets) => answerError('Slack', answer, now, { said: answer.body, secrets }),
};
