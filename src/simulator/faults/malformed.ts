/**
 * Bodies with some records broken the ways real upstreams break them: wrong types, missing
 * fields, a record that is not an object. The broken records are spread evenly through the
 * answer and chosen by position only, so the same request gets the same body.
 */
import type { Endpoint } from '../../exchange/dialects/spot-v3/wire';
import type { Reply } from '../http/reply';

type Json = Record<string, unknown>;
type Breaker = (record: Json) => unknown;

function firstNetwork(coin: Json): Json {
  const list = coin.networkList;
  return Array.isArray(list) && typeof list[0] === 'object' && list[0] !== null ? (list[0] as Json) : {};
}

const COIN_BREAKERS: readonly Breaker[] = [
  (c) => { firstNetwork(c).depositEnable = 'yes'; return c; },
  (c) => { delete firstNetwork(c).network; return c; },
  (c) => c.coin,
  (c) => { firstNetwork(c).withdrawFee = 0.5; return c; },
  (c) => ({ ...c, networkList: null }),
  (c) => { firstNetwork(c).minConfirm = '12'; return c; },
  (c) => { delete c.coin; return c; },
  (c) => { firstNetwork(c).isDefault = null; return c; },
];

const TICKER_BREAKERS: readonly Breaker[] = [
  (t) => ({ ...t, lastPrice: null }),
  (t) => ({ ...t, count: 'many' }),
  () => 42,
  (t) => { delete t.symbol; return t; },
  (t) => ({ ...t, openTime: String(t.openTime) }),
  (t) => ({ ...t, priceChange: Number(t.priceChange) }),
];

export function malformedBody(endpoint: Endpoint, reply: Reply, count: number): Buffer {
  const records = reply.records;
  if (reply.status !== 200 || records === undefined || records.length === 0) return reply.body;
  if (reply.single === true) return Buffer.from(JSON.stringify({ ...(JSON.parse(records[0] as string) as Json), lastPrice: null }));
  const breakers = endpoint === 'coins' ? COIN_BREAKERS : TICKER_BREAKERS;
  const out = [...records];
  const n = Math.min(count, records.length);
  for (let i = 0; i < n; i++) {
    const at = Math.floor(((i + 0.5) * records.length) / n);
    const breaker = breakers[i % breakers.length] as Breaker;
    out[at] = JSON.stringify(breaker(JSON.parse(out[at] as string) as Json));
  }
  return Buffer.from(`[${out.join(',')}]`);
}
