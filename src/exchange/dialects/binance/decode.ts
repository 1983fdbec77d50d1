/**
 * Binance's answers into the model, field by field as dialects.md section 2 ("binance") maps
 * them: the coin flags as sent, `withdrawTag` from `sameAddress` (the ticker: binance-family.ts).
 */
import type { CoinRecord, NetworkRecord } from '../../../snapshot/model';
import { everyNetwork } from '../../derived';
import { networksOf } from '../../decode-list';
import { bool, dec, FieldError, int, requiredBool, requiredStr, str, type Json } from '../../read';

function readNetwork(o: Json, coin: string): NetworkRecord {
  return {
    network: requiredStr(o, 'network'),
    coin,
    name: str(o, 'name', false),
    isDefault: bool(o, 'isDefault', false) ?? false,
    depositEnable: requiredBool(o, 'depositEnable'),
    withdrawEnable: requiredBool(o, 'withdrawEnable'),
    withdrawFee: dec(o, 'withdrawFee'),
    withdrawMin: dec(o, 'withdrawMin'),
    withdrawInternalMin: dec(o, 'withdrawInternalMin'),
    withdrawIntegerMultiple: dec(o, 'withdrawIntegerMultiple'),
    minConfirm: int(o, 'minConfirm'),
    withdrawTag: bool(o, 'sameAddress', false),
    depositDust: dec(o, 'depositDust'),
    contractAddress: str(o, 'contractAddress', false),
    contractAddressUrl: str(o, 'contractAddressUrl', false),
    depositDesc: str(o, 'depositDesc', false),
    withdrawDesc: str(o, 'withdrawDesc', false),
  };
}

export function readCoin(o: Json): CoinRecord {
  const coin = requiredStr(o, 'coin');
  if (!Array.isArray(o.networkList)) throw new FieldError('networkList is not a list');
  const networkList = networksOf(o.networkList, (n) => readNetwork(n, coin));
  // Binance's own flags, as sent (rule 4); derived only where an answer leaves them out.
  return {
    coin,
    name: str(o, 'name', false),
    depositAllEnable: bool(o, 'depositAllEnable', false) ?? everyNetwork(networkList, 'depositEnable'),
    withdrawAllEnable: bool(o, 'withdrawAllEnable', false) ?? everyNetwork(networkList, 'withdrawEnable'),
    networkList,
  };
}
