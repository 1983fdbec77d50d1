import { chatWebhookPlugin } from '../kit/chat-webhook';
import { slackService } from './slack';

/** `slack: { webhook_url }`: each group as one message through an incoming webhook, upstream text mrkdwn-escaped; the URL is a secret. */
export const slack = chatWebhookPlugin('slack', slackService);
