import { teamsPlugin } from './teams';

/** `teams: { webhook_url }`: each group as Adaptive Card messages through a Workflows webhook, split under Teams' size limit, upstream text made inert; the URL is a secret. */
export const teams = teamsPlugin;
