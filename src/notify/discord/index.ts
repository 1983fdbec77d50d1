import { chatWebhookPlugin } from '../kit/chat-webhook';
import { discordService } from './discord';

/** `discord: { webhook_url }`: each group as one message through a channel's webhook, upstream text made inert; the URL is a secret. */
export const discord = chatWebhookPlugin('discord', discordService);
