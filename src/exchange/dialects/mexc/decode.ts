/**
 * MEXC's answers into the model (dialects.md section 2, "mexc"): no coin-level flags (derived),
 * `netWork` before `network`, `contract` for the contract address, `depositDesc` only (the
 * ticker: families/binance.ts).
 */
import { keyIn, type CoinSource } from '../families/mapped-decode';
import { bool, dec, int, requiredBool, requiredStr, str } from '../../read';
import { CAPITAL_CONFIG_COIN } from '../families/binance';

export const COINS: CoinSource = {
  ...CAPITAL_CONFIG_COIN,
  // `netWork` when sent, else `network`: the key of a network that could not be read.
  networkKey: (n) => keyIn(n, 'netWork') ?? keyIn(n, 'network'),
  network: (o, coin) => {
    const netWork = str(o, 'netWork');
    return {
      // Newer answers carry the id in `netWork` ("TRX"), older ones only `network` ("Tron(TRC20)").
      network: netWork !== null && netWork !== '' ? netWork : requiredStr(o, 'network'),
      coin,
      name: str(o, 'name'),
      // MEXC does not say which network is the default: the model's "not the default".
      isDefault: null,
      depositEnable: requiredBool(o, 'depositEnable'),
      withdrawEnable: requiredBool(o, 'withdrawEnable'),
      withdrawFee: dec(o, 'withdrawFee'),
      withdrawMin: dec(o, 'withdrawMin'),
      withdrawInternalMin: null,
      withdrawIntegerMultiple: dec(o, 'withdrawIntegerMultiple'),
      minConfirm: int(o, 'minConfirm'),
      withdrawTag: bool(o, 'sameAddress'),
      depositDust: null,
      contractAddress: str(o, 'contract'),
      contractAddressUrl: null,
      depositDesc: str(o, 'depositDesc'),
      // `withdrawTips` is a standing note, not a status.
      withdrawDesc: null,
    };
  },
};
