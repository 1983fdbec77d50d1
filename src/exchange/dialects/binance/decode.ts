/**
 * Binance's answers into the model, field by field as dialects.md section 2 ("binance") maps
 * them: the coin flags as sent, `withdrawTag` from `sameAddress` (the ticker: binance-family.ts).
 */
import type { CoinRecord, NetworkRecord, RecordIssue } from '../../../snapshot/model';
import { carriedFlag, readNetworks } from '../../derived';
import { bool, dec, FieldError, int, keyOf, requiredBool, requiredStr, str, type Json } from '../../read';

function readNetwork(o: Json, coin: string): NetworkRecord {
  return {
    network: requiredStr(o, 'network'),
    coin,
    name: str(o, 'name', false),
    isDefault: bool(o, 'isDefault', false),
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

export function readCoin(o: Json, before: CoinRecord | undefined, issues: RecordIssue[]): CoinRecord {
  const coin = requiredStr(o, 'coin');
  if (!Array.isArray(o.networkList)) throw new FieldError('networkList is not a list');
  const read = readNetworks(coin, o.networkList, (n) => keyOf(n, 'network'), (n) => readNetwork(n, coin), issues);
  // Binance's own flags, as sent (rule 4); derived only where an answer leaves them out.
  const depositAllEnable = bool(o, 'depositAllEnable', false) ?? carriedFlag(read.networks, read.unknown, before, 'depositEnable');
  const withdrawAllEnable = bool(o, 'withdrawAllEnable', false) ?? carriedFlag(read.networks, read.unknown, before, 'withdrawEnable');
  if (depositAllEnable === undefined || withdrawAllEnable === undefined) throw new FieldError('the coin flags are unknown: a network was set aside and no other is closed');
  return { coin, name: str(o, 'name', false), depositAllEnable, withdrawAllEnable, networkList: read.networks };
}
