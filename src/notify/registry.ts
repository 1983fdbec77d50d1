/** Every receiver kind: one line each, in the order the config's messages list them. */
import { alertmanager } from './alertmanager';
import { discord } from './discord';
import { email } from './email';
import { gotify } from './gotify';
import { log } from './log';
import { matrix } from './matrix';
import { ntfy } from './ntfy';
import { pagerduty } from './pagerduty';
import { pushover } from './pushover';
import { ReceiverRegistry } from './receiver-registry';
import { slack } from './slack';
import { teams } from './teams';
import { telegram } from './telegram';
import { webhook } from './webhook';

export const RECEIVERS = [webhook, email, alertmanager, log, telegram, slack, discord, pagerduty, teams, matrix, ntfy, gotify, pushover] as const;

/** What the daemon gives the Telegram bot's commands (the composition root builds it). */
export type { BotContext, BotDeps, BotNotices, BotStatus, ClosedNetwork } from './telegram';

/** With no receivers configured, alerts still go somewhere visible: the log. */
export const DEFAULT_RECEIVER_NAME = 'log';

export const receiverRegistry = new ReceiverRegistry(RECEIVERS, { name: DEFAULT_RECEIVER_NAME, kind: log.kind, block: {} });
