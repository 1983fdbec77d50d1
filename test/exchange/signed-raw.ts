import fc from 'fast-check';

/**
 * Raw records of the signed dialects' answers, as the exchanges send them: field names and
 * values from dialects.md section 2, the exchanges' docs and the answers ccxt recorded
 * (`ts/src/test/static/response/<exchange>.json`, `.../currencies/<exchange>.json`: the
 * fixtures' SOURCES.md), not from our decoders. Mostly well formed, else with fields left out
 * or holding what a broken exchange might send, now and then not an object at all. The answers
 * built from them are records-reuse.test.ts's.
 */

/** A field's usual value, or one an exchange should not send. */
function sent<T>(usual: fc.Arbitrary<T>): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 3, arbitrary: usual }, { weight: 1, arbitrary: fc.constantFrom<unknown>(undefined, null, '', 'x', 7, true, [], {}) });
}

/**
 * A record of these fields: mostly well formed (every field its usual value, so that most are
 * taken, and remembered), else some fields left out or broken, now and then not an object.
 */
function record(fields: Record<string, fc.Arbitrary<unknown>>, requiredKeys: string[]): fc.Arbitrary<unknown> {
  const broken = fc.record(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, sent(v)])), { requiredKeys });
  return fc.oneof({ weight: 6, arbitrary: fc.record(fields) }, { weight: 3, arbitrary: broken }, { weight: 1, arbitrary: fc.constantFrom<unknown>(5, 'x', null, [1]) });
}

// Mostly of one length: a record changed in its place often keeps its length, so that only its whole text tells it changed.
const decimal = fc.constantFrom('0.1', '0.2', '1.5', '2.5', '0', '1E-8', '20533.13');
const digits = fc.constantFrom('0', '1', '4', '8', '12');
const bool = fc.boolean();
const text = fc.constantFrom('', ' ', 'Bitcoin', 'Tether', 'maintenance');

// Binance, "All Coins' Information (USER_DATA)": coin flags as sent, networks with `network`.
const binanceNetwork = (coin: string): fc.Arbitrary<unknown> =>
  record({
    network: fc.constantFrom('BSC', 'ETH', 'TRX', 'SEGWITBTC'),
    coin: fc.constant(coin),
    name: fc.constantFrom('BNB Smart Chain (BEP20)', 'Ethereum (ERC20)'),
    isDefault: bool,
    depositEnable: bool,
    withdrawEnable: bool,
    withdrawFee: decimal,
    withdrawMin: decimal,
    withdrawInternalMin: decimal,
    withdrawIntegerMultiple: decimal,
    minConfirm: fc.constantFrom(0, 1, 15),
    sameAddress: bool,
    depositDust: decimal,
    contractAddress: fc.constantFrom('0x55d398326f99059ff775485246999027b3197955', ''),
    contractAddressUrl: fc.constantFrom('https://bscscan.com/token/', ''),
    depositDesc: text,
    withdrawDesc: text,
    specialTips: fc.constant(''),
  }, ['network', 'depositEnable', 'withdrawEnable']);

export const binanceCoin: fc.Arbitrary<unknown> = fc.constantFrom('BTC', 'USDT', 'ETH', 'TRX', '1MBABYDOGE').chain((coin) =>
  record({
    coin: fc.constant(coin),
    name: text,
    depositAllEnable: bool,
    withdrawAllEnable: bool,
    free: fc.constant('0'),
    trading: bool,
    networkList: fc.array(binanceNetwork(coin), { maxLength: 3 }),
  }, ['coin', 'networkList']),
);

// MEXC, "Query the currency information": no coin flags, `netWork` (newer) or `network`, `contract`.
const mexcNetwork = (coin: string): fc.Arbitrary<unknown> =>
  record({
    coin: fc.constant(coin),
    depositDesc: fc.constantFrom(null, 'wallet maintenance'),
    depositEnable: bool,
    minConfirm: fc.constantFrom<unknown>('61', 12, '0'),
    name: fc.constantFrom('BTC-BSC', 'USDT-TRX'),
    network: fc.constantFrom('BNB Smart Chain(BEP20)', 'Tron(TRC20)', 'OMNI'),
    netWork: fc.constantFrom('BSC', 'TRX', ''),
    withdrawEnable: bool,
    withdrawFee: decimal,
    withdrawIntegerMultiple: fc.constantFrom<unknown>(null, '18', '8'),
    withdrawMax: fc.constant('100'),
    withdrawMin: decimal,
    sameAddress: bool,
    contract: fc.constantFrom('', '31', '0x7130d2a12b9bcbfae4f2634d864a1ee1ce3ead9c'),
    withdrawTips: fc.constant('note'),
  }, ['network', 'depositEnable', 'withdrawEnable']);

export const mexcCoin: fc.Arbitrary<unknown> = fc.constantFrom('BTC', 'USDT', 'ETH', 'TRX').chain((coin) =>
  record({ coin: fc.constant(coin), name: text, networkList: fc.array(mexcNetwork(coin), { maxLength: 3 }) }, ['coin', 'networkList']),
);

// Binance's and MEXC's "24hr Ticker Price Change Statistics" (MEXC: no count).
export const ticker24hr: fc.Arbitrary<unknown> = record({
  symbol: fc.constantFrom('BNBBTC', 'BTCUSDT', 'ETHBTC', 'TRXUSDT'),
  priceChange: decimal,
  priceChangePercent: fc.constantFrom('-95.960', '0.0173', '0'),
  weightedAvgPrice: fc.constant('0.29628482'),
  lastPrice: decimal,
  bidPrice: decimal,
  bidQty: decimal,
  askPrice: decimal,
  askQty: decimal,
  openPrice: decimal,
  highPrice: decimal,
  lowPrice: decimal,
  volume: decimal,
  quoteVolume: decimal,
  openTime: fc.constantFrom(1499783499040, 1673859087000),
  closeTime: fc.constantFrom(1499869899040, 1673859087947),
  count: fc.constantFrom(76, 0),
}, ['symbol', 'lastPrice']);

// OKX, "Get currencies": one row per coin and chain (`ccy`, `chain`), booleans, strings.
export const okxRow: fc.Arbitrary<unknown> = fc.constantFrom('BTC', 'USDT', 'ETH').chain((ccy) =>
  record({
    ccy: fc.constant(ccy),
    chain: fc.constantFrom(`${ccy}-Bitcoin`, `${ccy}-TRC20`, `${ccy}-Lightning`),
    name: fc.constantFrom('Bitcoin', 'Tether'),
    canDep: bool,
    canWd: bool,
    canInternal: bool,
    mainNet: bool,
    minFee: decimal,
    minWd: decimal,
    minDep: decimal,
    wdTickSz: digits,
    minDepArrivalConfirm: digits,
    minWdUnlockConfirm: fc.constant('3'),
    needTag: bool,
    ctAddr: fc.constantFrom('', ' ', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'),
  }, ['ccy', 'chain', 'canDep', 'canWd']),
);

// OKX, "Get tickers" (SPOT).
export const okxTicker: fc.Arbitrary<unknown> = record({
  instType: fc.constant('SPOT'),
  instId: fc.constantFrom('BTC-USDT', 'ETH-BTC', 'TRX-USDT', 'OKB-USDT'),
  last: decimal,
  lastSz: fc.constant('0.1'),
  askPx: decimal,
  askSz: decimal,
  bidPx: decimal,
  bidSz: decimal,
  open24h: decimal,
  high24h: decimal,
  low24h: decimal,
  volCcy24h: decimal,
  vol24h: decimal,
  ts: fc.constantFrom('1597026383085', '1597026383000'),
}, ['instId', 'last']);

// Bybit, "Get Coin Info": `chains`, flags "1"/"0", "" for no value.
const bybitChain: fc.Arbitrary<unknown> = record({
  chainType: fc.constantFrom('Arbitrum One', 'TRC20', 'zkSync Lite'),
  confirmation: fc.constantFrom('120', '20', ''),
  withdrawFee: fc.constantFrom('1', '1.6', ''),
  depositMin: fc.constantFrom('0', ''),
  withdrawMin: fc.constantFrom('1', '2.6', ''),
  chain: fc.constantFrom('ARBI', 'TRX', 'ZKSYNC'),
  chainDeposit: fc.constantFrom('1', '0'),
  chainWithdraw: fc.constantFrom('1', '0'),
  minAccuracy: digits,
  withdrawPercentageFee: fc.constant('0'),
  contractAddress: fc.constantFrom('', '0xfd086bc7cd5c481dcc9c85ebe478a1c0b69fcbb9'),
}, ['chain', 'chainDeposit', 'chainWithdraw']);

export const bybitCoin: fc.Arbitrary<unknown> = record({
  name: fc.constantFrom('USDT', 'BTC'),
  coin: fc.constantFrom('USDT', 'BTC', 'ETH', 'TRX'),
  remainAmount: fc.constant('50000000000'),
  chains: fc.array(bybitChain, { maxLength: 3 }),
}, ['coin', 'chains']);

// Bybit, "Get Tickers" (spot).
export const bybitTicker: fc.Arbitrary<unknown> = record({
  symbol: fc.constantFrom('BTCUSDT', 'ETHUSDT', 'TRXUSDT', 'SOLUSDT'),
  bid1Price: decimal,
  bid1Size: decimal,
  ask1Price: decimal,
  ask1Size: decimal,
  lastPrice: decimal,
  prevPrice24h: decimal,
  price24hPcnt: fc.constantFrom('0.0068', '-0.01', '0'),
  highPrice24h: decimal,
  lowPrice24h: decimal,
  turnover24h: decimal,
  volume24h: decimal,
  usdIndexPrice: fc.constant('20784.12009279'),
}, ['symbol', 'lastPrice']);
