/**
 * MEXC's answers into the model (dialects.md section 2, "mexc"): no coin-level flags (derived),
 * `netWork` before `network`, `contract` for the contract address, `depositDesc` only (the
 * ticker: binance-family.ts).
 */
import type { CoinRecord, NetworkRecord, RecordIssue } from '../../../snapshot/model';
import { derivedCoinOf, readNetworks } from '../../derived';
import { bool, dec, FieldError, int, keyOf, requiredBool, requiredStr, str, type Json } from '../../read';

function readNetwork(o: Json, coin: string): NetworkRecord {
  const netWork = str(o, 'netWork', false);
  return {
    // Newer answers carry the id in `netWork` ("TRX"), older ones only `network` ("Tron(TRC20)").
    network: netWork !== null && netWork !== '' ? netWork : requiredStr(o, 'network'),
    coin,
    name: str(o, 'name', false),
    // MEXC does not say which network is the default: the model's "not the default".
    isDefault: null,
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

/** `netWork` when sent, else `network`: the key of a network that could not be read. */
function networkKey(n: unknown): string | undefined {
  return keyOf(n, 'netWork') ?? keyOf(n, 'network');
}

export function readCoin(o: Json, before: CoinRecord | undefined, issues: RecordIssue[]): CoinRecord {
  const coin = requiredStr(o, 'coin');
  if (!Array.isArray(o.networkList)) throw new FieldError('networkList is not a list');
  return derivedCoinOf(coin, str(o, 'name', false), readNetworks(coin, o.networkList, networkKey, (n) => readNetwork(n, coin), issues), before);
}
