import type { CoinRecord, NetworkRecord, TickerRecord } from '../../src/snapshot/model';

/** A complete, valid network record; override what a test is about. */
export function networkRecord(over: Partial<NetworkRecord> & Pick<NetworkRecord, 'coin' | 'network'>): NetworkRecord {
  return {
    name: over.network,
    isDefault: false,
    depositEnable: true,
    withdrawEnable: true,
    withdrawFee: '1',
    withdrawMin: '10',
    withdrawInternalMin: null,
    withdrawIntegerMultiple: '1E-8',
    minConfirm: 12,
    withdrawTag: false,
    depositDust: '0.0001',
    contractAddress: '',
    contractAddressUrl: '',
    depositDesc: null,
    withdrawDesc: null,
    ...over,
  };
}

export function coinRecord(coin: string, networks: Array<Partial<NetworkRecord> & Pick<NetworkRecord, 'network'>>): CoinRecord {
  const networkList = networks.map((n, i) => networkRecord({ isDefault: i === 0, ...n, coin }));
  return {
    coin,
    name: coin,
    depositAllEnable: networkList.every((n) => n.depositEnable),
    withdrawAllEnable: networkList.every((n) => n.withdrawEnable),
    networkList,
  };
}

export function tickerRecord(symbol: string, over: Partial<TickerRecord> = {}): TickerRecord {
  return {
    symbol,
    priceChange: '1',
    priceChangePercent: '0.01',
    lastPrice: '101',
    bidPrice: '100.9',
    bidQty: '2',
    askPrice: '101.1',
    askQty: '3',
    openPrice: '100',
    highPrice: '102',
    lowPrice: '99',
    volume: '1000',
    quoteVolume: '100500',
    openTime: 1_700_000_000_000,
    closeTime: 1_700_086_400_000,
    count: 42,
    ...over,
  };
}
