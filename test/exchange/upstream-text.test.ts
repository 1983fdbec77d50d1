import { dialectClient, SIM_KEY as KEY } from '../support/dialect-client';
import { dialects } from '../../src/exchange/dialects/registry';
import { silentLogger } from '../../src/lib/logger';
import { startSimulator } from '../../src/simulator';
import type { SimulatorDialect } from '../../src/simulator/dialects/names';

/**
 * Upstream text enters the model in one place (exchange/read.ts), whichever dialect reads it:
 * a 100 KB withdrawDesc comes out cut to 1,000 characters and marked, a lone surrogate (sent as
 * the JSON escape `\ud800`) as U+FFFD.
 */
const HUGE = `${'Wallet maintenance. '.repeat(5_000)}`;
const CUT = `${HUGE.slice(0, 1000)}… [cut 99,000 characters]`;

async function readFrom(dialect: string) {
  const sim = await startSimulator({
    port: 0, host: '127.0.0.1', coins: 12, seed: 3, logger: silentLogger(),
    dialect: dialect as SimulatorDialect, credentials: { apiKey: KEY.api_key, apiSecret: KEY.api_secret, passphrase: KEY.passphrase },
  });
  sim.control.apply([
    { action: 'set_network', coin: 'USDT', network: 'Tron(TRC20)', set: { withdrawEnable: false, withdrawDesc: HUGE } },
    { action: 'set_network', coin: 'BTC', network: 'BTC', set: { depositDesc: 'x\ud800' } },
  ]);
  const client = dialectClient(dialect, sim.url);
  try {
    return await client.fetchCoins();
  } finally {
    await client.close();
    await sim.close();
  }
}

function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(stringsOf);
  return [];
}

describe('upstream text as each dialect reads it', () => {
  it('spot-v3: the 100 KB withdrawDesc cut and marked, the lone surrogate made U+FFFD', async () => {
    const { records, issues } = await readFrom('spot-v3');
    expect(issues).toEqual([]);
    const usdt = records.find((c) => c.coin === 'USDT')?.networkList.find((n) => n.network === 'Tron(TRC20)');
    const btc = records.find((c) => c.coin === 'BTC')?.networkList.find((n) => n.network === 'BTC');
    expect(usdt?.withdrawDesc).toBe(CUT);
    expect(btc?.depositDesc).toBe('x\ufffd');
  });

  it.each(dialects.names())('%s: every text read is well-formed and within the cap', async (dialect) => {
    const { records } = await readFrom(dialect);
    const texts = stringsOf(records);
    expect(texts.filter((t) => !t.isWellFormed())).toEqual([]);
    expect(Math.max(...texts.map((t) => t.length))).toBeLessThanOrEqual(CUT.length);
  });
});
