/** The ledger exchange's paths and credentials (a test-only dialect: index.ts). */
import { z } from 'zod';

export const LEDGER_PATHS = { assets: '/v2/assets', tickers: '/v2/tickers', time: '/v2/time' } as const;

export const credentials = z.object({ api_key: z.string().min(1), api_secret: z.string().min(1) }).strict();
export type LedgerCredentials = z.output<typeof credentials>;
