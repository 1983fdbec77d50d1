/** The renderer of each dialect the reference exchange speaks besides the spec's own (spot-v3). */
import { binance } from './binance';
import { bitget } from './bitget';
import { bybit } from './bybit';
import { gate } from './gate';
import { htx } from './htx';
import { kucoin } from './kucoin';
import { mexc } from './mexc';
import type { SimulatorDialect } from './names';
import { okx } from './okx';
import type { DialectRenderer } from './types';

const RENDERERS: Record<Exclude<SimulatorDialect, 'spot-v3'>, DialectRenderer> = { binance, mexc, bitget, kucoin, gate, htx, okx, bybit };

/** undefined for spot-v3, which the original handler (http/api.ts) serves byte for byte. */
export function rendererOf(dialect: SimulatorDialect): DialectRenderer | undefined {
  return dialect === 'spot-v3' ? undefined : RENDERERS[dialect];
}
