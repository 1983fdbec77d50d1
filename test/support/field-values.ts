import type { CoinRecord, NetworkRecord, TickerRecord } from '../../src/snapshot/model';

/*
 * For every field of every record type, a value other than the one test/support/records.ts
 * gives: the field tests change one field at a time. Typed by the model, so a field added to a
 * field list does not compile here until it has a value.
 */

export const OTHER_NETWORK_VALUE: { [K in keyof NetworkRecord]: NetworkRecord[K] } = {
  network: 'SOL',
  coin: 'USDC',
  name: 'Tron',
  isDefault: true,
  depositEnable: false,
  withdrawEnable: false,
  withdrawFee: '2',
  withdrawMin: '20',
  withdrawInternalMin: '5',
  withdrawIntegerMultiple: '0.01',
  minConfirm: 20,
  withdrawTag: true,
  depositDust: '0.5',
  contractAddress: '0xabc',
  contractAddressUrl: 'https://explorer.example/token/',
  depositDesc: 'Upgrade',
  withdrawDesc: 'Maintenance',
};

export const OTHER_COIN_VALUE: { [K in keyof CoinRecord]: CoinRecord[K] } = {
  coin: 'USDC',
  name: 'Tether USD',
  depositAllEnable: false,
  withdrawAllEnable: false,
  networkList: [],
};

export const OTHER_TICKER_VALUE: { [K in keyof TickerRecord]: TickerRecord[K] } = {
  symbol: 'ETHUSDT',
  priceChange: '2',
  priceChangePercent: '0.02',
  lastPrice: '102',
  bidPrice: '101.8',
  bidQty: '4',
  askPrice: '102.2',
  askQty: '5',
  openPrice: '99',
  highPrice: '103',
  lowPrice: '98',
  volume: '2000',
  quoteVolume: '201000',
  openTime: 1_700_000_001_000,
  closeTime: 1_700_086_401_000,
  count: 43,
};
