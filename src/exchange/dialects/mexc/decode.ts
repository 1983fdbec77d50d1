/**
 * MEXC's answers into the model (dialects.md section 2, "mexc"): no coin-level flags (derived),
 * `netWork` before `network`, `contract` for the contract address, `depositDesc` only (the
 * ticker: binance-family.ts).
 */
import type { CoinRecord, NetworkRecord } from '../../../snapshot/model';
import { derivedCoin, networksOf } from '../../decode-list';
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
  return derivedCoin(coin, str(o, 'name', false), networksOf(o.networkList, (n) => readNetwork(n, coin)));
}
