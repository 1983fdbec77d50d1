import { dialectClient, SIM_KEY as KEY } from '../../support/dialect-client';
import { dialects } from '../../../src/exchange/dialects/registry';
import { silentLogger } from '../../../src/lib/logger';
import { startSimulator, type RunningSimulator } from '../../../src/simulator';
import type { SimulatorDialect } from '../../../src/simulator/dialects/names';

/**
 * Every dialect, end to end at the HTTP edge: the reference exchange speaks it (its renderer was
 * built from the exchange's docs and recorded answers, not from the decoder) and the real client
 * reads it with the dialect's decoder. The same market must come out: every coin and network the
 * spec-speaking exchange shows, nothing set aside, flags and text as in spot-v3.
 */

async function read(dialect: string, sim: RunningSimulator) {
  const client = dialectClient(dialect, sim.url);
  try {
    return await client.fetchCoins();
  } finally {
    await client.close();
  }
}

describe('each dialect read from the reference exchange speaking it', () => {
  let spot: RunningSimulator;
  beforeAll(async () => {
    spot = await startSimulator({ port: 0, host: '127.0.0.1', coins: 40, seed: 3, logger: silentLogger() });
  });
  afterAll(() => spot.close());

  it.each(dialects.names().filter((n) => n !== 'spot-v3'))('%s: the same coins and networks as spot-v3, nothing set aside', async (dialect) => {
    const sim = await startSimulator({ port: 0, host: '127.0.0.1', coins: 40, seed: 3, logger: silentLogger(), dialect: dialect as SimulatorDialect, credentials: { apiKey: KEY.api_key, apiSecret: KEY.api_secret, passphrase: KEY.passphrase } });
    try {
      const [want, got] = [await read('spot-v3', spot), await read(dialect, sim)];
      expect(got.issues).toEqual([]);
      // Each exchange names networks its own way (and the chain table knows only some): per coin,
      // the same flags and the same number of networks with the same deposit and withdrawal states.
      const networks = (r: typeof got) =>
        r.records.map((c) => `${c.coin} d=${c.depositAllEnable} w=${c.withdrawAllEnable}: ${c.networkList.map((n) => `d=${n.depositEnable} w=${n.withdrawEnable}`).sort().join(', ')}`).sort();
      expect(networks(got)).toEqual(networks(want));
    } finally {
      await sim.close();
    }
  });
});
