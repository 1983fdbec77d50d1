import type { SimulatorDialect } from '../../../src/simulator/dialects/names';

/**
 * Where each dialect's raw coins answer keeps USDT's networks and their withdraw flag (from the
 * exchanges' docs, as the reference exchange renders them): for tests that leave a flag out as
 * an exchange would. Not from the decoders.
 */

type Raw = Record<string, unknown>;
const list = (v: unknown): Raw[] => (Array.isArray(v) ? (v as Raw[]) : []);
const data = (body: unknown): Raw[] => list((body as Raw).data);
const usdt = (coins: Raw[], key: string, children: string): Raw[] => list(coins.find((c) => String(c[key]).toUpperCase() === 'USDT')?.[children]);

export interface UnknownFlagCase {
  dialect: Exclude<SimulatorDialect, 'spot-v3'>;
  /** USDT's Tron and Ethereum networks as the dialect names them. */
  tron: string;
  erc20: string;
  /** The raw network objects of USDT in an answer. */
  networks(body: unknown): Raw[];
  /** The raw network's id, and its withdraw flag's key. */
  id: string;
  withdraw: string;
}

export const UNKNOWN_FLAG_CASES: UnknownFlagCase[] = [
  { dialect: 'binance', tron: 'TRX', erc20: 'ETH', networks: (b) => usdt(list(b), 'coin', 'networkList'), id: 'network', withdraw: 'withdrawEnable' },
  { dialect: 'mexc', tron: 'TRX', erc20: 'ETH', networks: (b) => usdt(list(b), 'coin', 'networkList'), id: 'netWork', withdraw: 'withdrawEnable' },
  { dialect: 'okx', tron: 'USDT-TRC20', erc20: 'USDT-ERC20', networks: (b) => data(b).filter((r) => r.ccy === 'USDT'), id: 'chain', withdraw: 'canWd' },
  { dialect: 'bybit', tron: 'TRX', erc20: 'ETH', networks: (b) => usdt(list(((b as Raw).result as Raw).rows), 'coin', 'chains'), id: 'chain', withdraw: 'chainWithdraw' },
  { dialect: 'bitget', tron: 'TRC20', erc20: 'ERC20', networks: (b) => usdt(data(b), 'coin', 'chains'), id: 'chain', withdraw: 'withdrawable' },
  { dialect: 'kucoin', tron: 'trx', erc20: 'eth', networks: (b) => usdt(data(b), 'currency', 'chains'), id: 'chainId', withdraw: 'isWithdrawEnabled' },
  { dialect: 'gate', tron: 'TRX', erc20: 'ETH', networks: (b) => usdt(list(b), 'currency', 'chains'), id: 'name', withdraw: 'withdraw_disabled' },
  { dialect: 'htx', tron: 'trc20usdt', erc20: 'usdterc20', networks: (b) => usdt(data(b), 'currency', 'chains'), id: 'chain', withdraw: 'withdrawStatus' },
];

/** Leaves USDT's Tron withdraw flag out of a raw coins answer, in place. */
export function dropTronFlag(c: UnknownFlagCase, body: unknown): void {
  const n = c.networks(body).find((x) => x[c.id] === c.tron);
  if (n === undefined) throw new Error(`no ${c.tron} in the answer`);
  delete n[c.withdraw];
}
