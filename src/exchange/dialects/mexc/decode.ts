/**
 * MEXC's answers into the model (dialects.md section 2, "mexc"): no coin-level flags (derived),
 * `netWork` before `network`, `contract` for the contract address, `depositDesc` only, and a
 * ticker whose `priceChangePercent` is already a ratio and whose `count` is not sent.
 */
import type { CoinRecord, NetworkRecord, TickerRecord } from '../../../snapshot/model';
import { everyNetwork, specSymbol } from '../../derived';
import { networksOf } from '../../decode-list';
import { bool, dec, FieldError, int, requiredBool, requiredStr, str, type Json } from '../../read';

function readNetwork(o: Json, coin: string): NetworkRecord {
  const netWork = str(o, 'netWork', false);
  return {
    // Newer answers carry the id in `netWork` ("TRX"), older ones only `network` ("Tron(TRC20)").
    network: netWork !== null && netWork !== '' ? netWork : requiredStr(o, 'network'),
    coin,
    name: str(o, 'name', false),
    // MEXC does not say which network is the default: the model's "not the default".
    isDefault: false,
    depositEnable: requiredBool(o, 'depositEnable'),
    withdrawEnable: requiredBool(o, 'withdrawEnable'),
    withdrawFee: dec(o, 'withdrawFee'),
    withdrawMin: dec(o, 'withdrawMin'),
    withdrawInternalMin: null,
    withdrawIntegerMultiple: dec(o, 'withdrawIntegerMultiple'),
    minConfirm: int(o, 'minConfirm'),
    withdrawTag: bool(o, 'sameAddress', false),
    depositDust: null,
    contractAddress: str(o, 'contract', false),
    contractAddressUrl: null,
    depositDesc: str(o, 'depositDesc', false),
    // `withdrawTips` is a standing note, not a status.
    withdrawDesc: null,
  };
}

export function readCoin(o: Json): CoinRecord {
  const coin = requiredStr(o, 'coin');
  if (!Array.isArray(o.networkList)) throw new FieldError('networkList is not a list');
  const networkList = networksOf(o.networkList, (n) => readNetwork(n, coin));
  return {
    coin,
    name: str(o, 'name', false),
    depositAllEnable: everyNetwork(networkList, 'depositEnable'),
    withdrawAllEnable: everyNetwork(networkList, 'withdrawEnable'),
    networkList,
  };
}

export function readTicker(o: Json): TickerRecord {
  const lastPrice = dec(o, 'lastPrice');
  if (lastPrice === null) throw new FieldError('lastPrice is missing');
  return {
    symbol: specSymbol(requiredStr(o, 'symbol')),
    priceChange: dec(o, 'priceChange'),
    // Already a ratio ("0.0173" is 1.73 %): carried as sent.
    priceChangePercent: dec(o, 'priceChangePercent'),
    lastPrice,
    bidPrice: dec(o, 'bidPrice'),
    bidQty: dec(o, 'bidQty'),
    askPrice: dec(o, 'askPrice'),
    askQty: dec(o, 'askQty'),
    openPrice: dec(o, 'openPrice'),
    highPrice: dec(o, 'highPrice'),
    lowPrice: dec(o, 'lowPrice'),
    volume: dec(o, 'volume'),
    quoteVolume: dec(o, 'quoteVolume'),
    // Seconds apart in MEXC's answers, not 24 h: carried as sent.
    openTime: int(o, 'openTime'),
    closeTime: int(o, 'closeTime'),
    count: null,
  };
}
