/**
 * Binance's answers into the model, field by field as dialects.md section 2 ("binance") maps
 * them: the coin flags as sent, `withdrawTag` from `sameAddress` (the ticker: families/binance.ts).
 */
import { keyIn, type CoinSource } from '../families/mapped-decode';
import { bool, dec, int, requiredBool, requiredStr, str } from '../../read';
import { CAPITAL_CONFIG_COIN } from '../families/binance';

export const COINS: CoinSource = {
  ...CAPITAL_CONFIG_COIN,
  networkKey: (n) => keyIn(n, 'network'),
  network: (o, coin) => ({
    network: requiredStr(o, 'network'),
    coin,
    name: str(o, 'name'),
    isDefault: bool(o, 'isDefault'),
    depositEnable: requiredBool(o, 'depositEnable'),
    withdrawEnable: requiredBool(o, 'withdrawEnable'),
    withdrawFee: dec(o, 'withdrawFee'),
    withdrawMin: dec(o, 'withdrawMin'),
    withdrawInternalMin: dec(o, 'withdrawInternalMin'),
    withdrawIntegerMultiple: dec(o, 'withdrawIntegerMultiple'),
    minConfirm: int(o, 'minConfirm'),
    withdrawTag: bool(o, 'sameAddress'),
    depositDust: dec(o, 'depositDust'),
    contractAddress: str(o, 'contractAddress'),
    contractAddressUrl: str(o, 'contractAddressUrl'),
    depositDesc: str(o, 'depositDesc'),
    withdrawDesc: str(o, 'withdrawDesc'),
  }),
  // Binance's own flags, as sent (rule 4); derived only where an answer leaves them out.
  sentFlag: (o, flag) => bool(o, flag),
};
