import { mentionLists, mentions, TITLE_READ, type MentionLists } from '../../src/notices/mentions';
import { chainNames } from '../../src/notices/chain-names';
import { CHAIN_TABLE, ChainTable } from '../../src/snapshot/chains';
import type { CoinRecord, NetworkRecord, TickerRecord } from '../../src/snapshot/model';

/** An exchange's lists: coins, symbols and the chains of its networks, each a space-separated list. */
function lists(coins: string, symbols: string, chains: string): MentionLists {
  const set = (words: string) => new Set(words.split(' ').filter((w) => w !== ''));
  return { coins: set(coins), symbols: set(symbols), chains: set(chains) };
}

const NONE = { coins: [], symbols: [], chains: [] };

// Each exchange's lists hold the coins its titles name plus coins they name only incidentally
// (USDT, BTC, ...) and the quote coins of their pairs, so that what is left out is left out by a rule.
const BINANCE = lists(
  'ALPHA BSW KMD LEVER LTO POL VET VTHO DOOD MUBARAK BROCCOLI714 TST 1MBABYDOGE KOMA ARB ID RDNT TUSD USDC USDT ' +
    'BTC ETH BNB RGT MOVR ALGO RUB AUD LAZIO BUSD LUNA BIDR MANA TRY OXT SHIB UAH GALA USDP',
  // AUD/USDC and LUNA/BIDR are not listed (any more): their pairs are no mentions
  'ALGORUB LAZIOBUSD MANATRY OXTBUSD SHIBUAH BTCUSDT',
  'bitcoin ethereum bsc tron polygon vechain arbitrum solana',
);
const OKX = lists('VIRTUAL OKB DORA ICX STORJ ZEUS ELF CT USDT BTC', 'VIRTUALUSDT CTUSDT OKBUSDT', 'bitcoin ethereum tron x-layer okt-chain');
const BYBIT = lists('ARB USDT BTC ETH L3 VIC SCR', 'ARBUSDT L3USDT', 'ethereum tron arbitrum scroll');
const KUCOIN = lists('SCR USDT BTC ETH ST', 'SCRUSDT', 'bitcoin ethereum tron kcc');
const BITGET = lists(
  'VET ZRO BICO BIGTIME ZKSYNC USDT BTC ETH SAUCE DOG FDUSD',
  'BICOUSDT BIGTIMEUSDT VETUSDT',
  // cronos too: Bitget's `CronosChain` network, whose OKX name `Crypto` is never read in a title
  'bitcoin ethereum tron vechain zksync-era cronos',
);
const GATE = lists('WLD USDT', 'WLDUSDT', 'ethereum optimism');

describe('mentions: real titles (notices.md section 2)', () => {
  test.each([
    // Binance, "Delisting" catalog (161): a recorded answer of /bapi/composite/v1/public/cms/article/list/query
    // in a public repository's test server (search file id 22803704185), article 239906
    ['Binance Will Delist ALPHA, BSW, KMD, LEVER, LTO on 2025-07-04', BINANCE, { coins: ['ALPHA', 'BSW', 'KMD', 'LEVER', 'LTO'], symbols: [], chains: [] }],
    // ...article 240208 (catalog 157, maintenance): chain by name, coin by rule 1
    ['Binance Will Support the Polygon (POL) Network Upgrade & Hard Fork - 2025-07-01', BINANCE, { coins: ['POL'], symbols: [], chains: ['polygon'] }],
    // ...article 240267: two tickers in parentheses; "Vechain" in any case is the chain vechain
    ['Binance Will Support the Vechain (VET) and VeThor Token (VTHO) Network Upgrade & Hard Fork - 2025-07-01', BINANCE, { coins: ['VET', 'VTHO'], symbols: [], chains: ['vechain'] }],
    // ...article 240127: a date in parentheses is no ticker
    ['Binance Will Update the Collateral Ratio of Multiple Assets Under Portfolio Margin (2025-07-04)', BINANCE, NONE],
    // ...article 236019: DOOD by rule 1; the holders' coins are named only incidentally
    ['Binance Will Support the Doodles (DOOD) Airdrop for MUBARAK, BROCCOLI714, TST, 1MBABYDOGE, and KOMA Holders', BINANCE, { coins: ['DOOD'], symbols: [], chains: [] }],
    // ...article 157880 (catalog 50): a list after "Buy", not after a list word: none by default
    ['Buy ARB, ID, RDNT, TUSD & USDC Directly Using Credit/Debit Cards and Fiat Balances', BINANCE, NONE],
    // ...article 240301: "3,600 USDC Rewards" is incidental
    ['Binance Earn July Monthly Challenge: Enjoy Up to 3,600 USDC Rewards and 33.65% APR on Dual Investment', BINANCE, NONE],
    // Binance titles with their article codes in a public repository's parser test (search file id 9475099658):
    // code f9e1123ffc12458795716a0e027ff07a
    ['Binance Will List Rari Governance Token (RGT)', BINANCE, { coins: ['RGT'], symbols: [], chains: [] }],
    // code cfef2fc1127d4a9fbeb8f29f4f223cf8: a listed coin, and a chain of the table (moonriver) the exchange has no network on
    ['Binance Will List Moonriver (MOVR)', BINANCE, { coins: ['MOVR'], symbols: [], chains: [] }],
    // code 5c649babec204c27b7d7b734dba937ee: each listed pair and its base, never a quote (RUB, BUSD, TRY, UAH are listed coins)
    [
      'Binance Adds ALGO/RUB, AUD/USDC, LAZIO/BUSD, LUNA/BIDR, MANA/TRY, OXT/BUSD & SHIB/UAH Trading Pairs',
      BINANCE,
      { coins: ['ALGO', 'LAZIO', 'MANA', 'OXT', 'SHIB'], symbols: ['ALGORUB', 'LAZIOBUSD', 'MANATRY', 'OXTBUSD', 'SHIBUAH'], chains: [] },
    ],
    // code 8f89686731e04da3b9a98e20a0897413: `USDT-Margined` is no pair, and USDT only incidental
    ['Binance Futures Will Launch USDT-Margined GALA Perpetual Contracts with Up to 25X Leverage', BINANCE, NONE],
    // Binance, catalog 161, as quoted in a public repository's fixtures (search file id 70485178174), article 284259
    ['Binance Will Delist USDP on 2026-09-24', BINANCE, { coins: ['USDP'], symbols: [], chains: [] }],

    // Bybit, the response example of "Get Announcement" (GET /v5/announcements/index), Bybit V5 API docs
    [
      'New Listing: Arbitrum (ARB) — Deposit, Trade and Stake ARB to Share a 400,000 USDT Prize Pool!',
      BYBIT,
      { coins: ['ARB'], symbols: [], chains: ['arbitrum'] },
    ],
    // Bybit delistings, as quoted in a public repository's fixtures (search file id 70485178174)
    ['Delisting of L3,VIC', BYBIT, { coins: ['L3', 'VIC'], symbols: [], chains: [] }],
    ['Bybit to Delist 4 Token(s) on Sep 24, 2026', BYBIT, NONE],

    // OKX, rust-okx 0.6.3 src/api/support/tests.rs (docs.rs), announcements-new-listings and -web3
    ['OKX to list Virtuals Protocol (VIRTUAL) for spot trading', OKX, { coins: ['VIRTUAL'], symbols: [], chains: [] }],
    ['Completion of X Layer Mainnet Upgrade', OKX, { coins: [], symbols: [], chains: ['x-layer'] }],
    // OKX, the response example of "Get system status" (GET /api/v5/system/status), OKX API docs: words in parentheses
    ['Trading account system upgrade (in batches of accounts)', OKX, NONE],
    // OKX announcements as quoted in a public repository's fixtures (search file id 70485178174)
    ['OKX to delist DORA, ICX, STORJ, ZEUS and ELF spot trading pairs', OKX, { coins: ['DORA', 'ICX', 'STORJ', 'ZEUS', 'ELF'], symbols: [], chains: [] }],
    ['OKX to list CT/USDT (Concrete) for spot trading', OKX, { coins: ['CT'], symbols: ['CTUSDT'], chains: [] }],

    // KuCoin, the response example of "Get Announcements" (GET /api/v3/announcements), KuCoin API docs
    // as copied in a public repository (search file id 45289887921): scroll is no chain of KuCoin's networks...
    ['KuCoin Isolated Margin Adds the Scroll (SCR) Trading Pair', KUCOIN, { coins: ['SCR'], symbols: [], chains: [] }],
    // ...and is one of Bybit's: `Scroll (SCR)` names the chain (an ordinary word followed by its ticker)
    ['KuCoin Isolated Margin Adds the Scroll (SCR) Trading Pair', BYBIT, { coins: ['SCR'], symbols: [], chains: ['scroll'] }],
    // KuCoin, python-kucoin's docstring of get_announcements (search file id 6280204295)
    ['Announcement of KuCoin Futures System Upgrade', KUCOIN, NONE],
    // KuCoin, as quoted in a public repository's tests (search file id 55860545331): `ST:` is a prefix, no coin
    ['ST: KuCoin Will Delist Certain Projects and Their Associated Trading Pairs', KUCOIN, NONE],

    // Bitget, a real answer of GET /api/v2/public/annoucements?annType=coin_listings kept in a public
    // repository (search file id 44383801800), annId 12560603809830
    ['Bitget Will List VeChain (VET). Come and grab a share of $37,750 worth of VET!', BITGET, { coins: ['VET'], symbols: [], chains: ['vechain'] }],
    // ...12560603809821: no space before the parenthesis
    ['Bitget pre-market trading:Layerzero(ZRO) is set to launch soon', BITGET, { coins: ['ZRO'], symbols: [], chains: [] }],
    // ...12560603810064: a run-together symbol the exchange lists, and its base
    ['BICOUSDT is Now Available on Futures', BITGET, { coins: ['BICO'], symbols: ['BICOUSDT'], chains: [] }],
    // ...12560603810142
    ['Announcement on adjustment of position tier for BIGTIMEUSDT futures trading pair', BITGET, { coins: ['BIGTIME'], symbols: ['BIGTIMEUSDT'], chains: [] }],
    // ...12560603809987: `zkSync` alone names neither zkSync Era nor zkSync Lite
    ['Bitget pre-market trading: zkSync (ZKSYNC) is set to launch soon', BITGET, { coins: ['ZKSYNC'], symbols: [], chains: [] }],
    // ...12560603809998: a list after "Borrow", and "Crypto" (OKX's name of Cronos) is a word here
    ['Bitget Crypto Loan Carnival: Borrow USDT, BTC, and ETH to enjoy an ultra-low interest rate of 1.2%', BITGET, NONE],
    // ...12560603810056: after "listing" comes a name, not a list; "Stake BTC" is incidental
    ['Bitget PoolX is listing SaucerSwap (SAUCE): Stake BTC to mine SAUCE.', BITGET, { coins: ['SAUCE'], symbols: [], chains: [] }],
    // ...12560603810139: a bare list of one, then the same ticker in parentheses
    ['Bitget Will List DOG (DOG) in the Innovation and BTC Ecosystem Zone!', BITGET, { coins: ['DOG'], symbols: [], chains: [] }],
    // ...12560603809829
    ['Bitget Will List First Digital USD (FDUSD). Come and grab a share of $80,000 worth of FDUSD!', BITGET, { coins: ['FDUSD'], symbols: [], chains: [] }],
    // ...12560603810143
    ['Notice on New Trading Pairs on Bitget Spot - 24 May 2024', BITGET, NONE],

    // Gate, the response example of the announcement.summary_listing channel, Gate WebSocket docs
    ['Gate will commence Worldcoin(WLD) Trading at 7:30am UTC 24th July 2023 test', GATE, { coins: ['WLD'], symbols: [], chains: [] }],
  ] as const)('%j', (title, exchangeLists, expected) => {
    expect(mentions(title, exchangeLists)).toEqual(expected);
  });

  test.each([
    // The same titles with incidental mentions asked for: every listed coin's ticker standing as a word, never a pair's quote.
    ['New Listing: Arbitrum (ARB) — Deposit, Trade and Stake ARB to Share a 400,000 USDT Prize Pool!', BYBIT, ['ARB', 'USDT']],
    ['Binance Will Support the Doodles (DOOD) Airdrop for MUBARAK, BROCCOLI714, TST, 1MBABYDOGE, and KOMA Holders', BINANCE, ['DOOD', 'MUBARAK', 'BROCCOLI714', 'TST', '1MBABYDOGE', 'KOMA']],
    ['Buy ARB, ID, RDNT, TUSD & USDC Directly Using Credit/Debit Cards and Fiat Balances', BINANCE, ['ARB', 'ID', 'RDNT', 'TUSD', 'USDC']],
    ['Binance Futures Will Launch USDT-Margined GALA Perpetual Contracts with Up to 25X Leverage', BINANCE, ['USDT', 'GALA']],
    ['Binance Earn July Monthly Challenge: Enjoy Up to 3,600 USDC Rewards and 33.65% APR on Dual Investment', BINANCE, ['USDC']],
    ['Bitget Crypto Loan Carnival: Borrow USDT, BTC, and ETH to enjoy an ultra-low interest rate of 1.2%', BITGET, ['USDT', 'BTC', 'ETH']],
    ['Bitget PoolX is listing SaucerSwap (SAUCE): Stake BTC to mine SAUCE.', BITGET, ['SAUCE', 'BTC']],
    ['Bitget Will List DOG (DOG) in the Innovation and BTC Ecosystem Zone!', BITGET, ['DOG', 'BTC']],
    ['ST: KuCoin Will Delist Certain Projects and Their Associated Trading Pairs', KUCOIN, ['ST']],
    ['Binance Adds ALGO/RUB, AUD/USDC, LAZIO/BUSD, LUNA/BIDR, MANA/TRY, OXT/BUSD & SHIB/UAH Trading Pairs', BINANCE, ['ALGO', 'LAZIO', 'MANA', 'OXT', 'SHIB']],
  ] as const)('incidental: %j', (title, exchangeLists, coins) => {
    expect(mentions(title, exchangeLists, { incidental: true }).coins).toEqual(coins);
    expect(mentions(title, exchangeLists, { incidental: false })).toEqual(mentions(title, exchangeLists));
  });
});

describe('mentions: each candidate only when the exchange lists it', () => {
  test('a coin the exchange does not list is no mention', () => {
    const withoutLto = lists('ALPHA BSW KMD LEVER', '', '');
    expect(mentions('Binance Will Delist ALPHA, BSW, KMD, LEVER, LTO on 2025-07-04', withoutLto).coins).toEqual(['ALPHA', 'BSW', 'KMD', 'LEVER']);
    expect(mentions('Binance Will List Rari Governance Token (RGT)', withoutLto)).toEqual(NONE);
  });

  test('a chain none of its networks is on is no mention', () => {
    expect(mentions('Completion of X Layer Mainnet Upgrade', BINANCE)).toEqual(NONE);
  });

  test('a pair the exchange does not list names neither symbol nor base', () => {
    expect(mentions('OKX to list CT/USDT (Concrete) for spot trading', lists('CT USDT', 'BTCUSDT', ''))).toEqual(NONE);
    expect(mentions('OKX to list CT/USDT (Concrete) for spot trading', lists('CT USDT', 'CTUSDT', ''))).toEqual({ coins: ['CT'], symbols: ['CTUSDT'], chains: [] });
  });
});

// Titles made up to isolate one rule each (the real ones above combine them).
describe('mentions: the rules one by one', () => {
  test.each([
    // a run-together symbol's base is before the longest listed coin it ends with
    ['Will Delist TUSDT', lists('T TUSD USDT', 'TUSDT', ''), { coins: ['T'], symbols: ['TUSDT'], chains: [] }],
    // ...and none when that leaves no listed coin
    ['Will Delist XYZUSDT', lists('USDT', 'XYZUSDT', ''), { coins: [], symbols: ['XYZUSDT'], chains: [] }],
    // pairs with `-` and `_`
    ['BTC-USDT and ETH_USDT', lists('BTC ETH USDT', 'BTCUSDT ETHUSDT', ''), { coins: ['BTC', 'ETH'], symbols: ['BTCUSDT', 'ETHUSDT'], chains: [] }],
    // order of first appearance, each once, whatever rule found it first
    ['Suspension of ETH and BTC deposits on Ethereum (ETH)', lists('BTC ETH', '', 'ethereum'), { coins: ['ETH', 'BTC'], symbols: [], chains: ['ethereum'] }],
    // words between a suspend word and its list
    ['Will Suspend Deposits and Withdrawals of USDT & USDC on TRC20', lists('USDT USDC', '', 'tron'), { coins: ['USDT', 'USDC'], symbols: [], chains: ['tron'] }],
    // chain names any case, whole words only, the longest first
    ['ARBITRUM NOVA and arbitrum one upgrades', lists('', '', 'arbitrum arbitrum-nova'), { coins: [], symbols: [], chains: ['arbitrum-nova', 'arbitrum'] }],
    ['Polygonal art', lists('', '', 'polygon'), NONE],
    ['OKT Chain, KCC and zkSync Lite deposits', lists('', '', 'okt-chain kcc zksync-lite'), { coins: [], symbols: [], chains: ['okt-chain', 'kcc', 'zksync-lite'] }],
    ['USDT on BNB Smart Chain (BEP20) and Algorand', lists('USDT', '', 'bsc algorand'), { coins: [], symbols: [], chains: ['bsc', 'algorand'] }],
    // an ordinary word is a chain only where the title says so
    ['Binance Will Support USDC on Base', lists('USDC', '', 'base'), NONE],
    ['Base Network Upgrade', lists('', '', 'base'), { coins: [], symbols: [], chains: ['base'] }],
    ['Omni Network (OMNI) Listing', lists('', '', 'omni'), NONE],
    ['USDT on Omni Layer', lists('', '', 'omni'), { coins: [], symbols: [], chains: ['omni'] }],
    // lower-case words and pure numbers in parentheses are no tickers; a ticker may hold digits
    ['Upgrade (2025) (beta) (1INCH)', lists('1INCH', '', ''), { coins: ['1INCH'], symbols: [], chains: [] }],
  ] as const)('%j', (title, exchangeLists, expected) => {
    expect(mentions(title, exchangeLists)).toEqual(expected);
  });
});

describe('mentionLists', () => {
  const network = (n: Partial<NetworkRecord> & { network: string }): NetworkRecord => ({ coin: 'USDT', name: null, isDefault: null, depositEnable: true, withdrawEnable: true, withdrawFee: null, withdrawMin: null, withdrawInternalMin: null, withdrawIntegerMultiple: null, minConfirm: null, withdrawTag: null, depositDust: null, contractAddress: null, contractAddressUrl: null, depositDesc: null, withdrawDesc: null, ...n });
  const coin = (name: string, networks: string[]): CoinRecord => ({ coin: name, name: null, depositAllEnable: true, withdrawAllEnable: true, networkList: networks.map((n) => network({ network: n, coin: name })) });

  test('the coins, the symbols, and the canonical chains of the networks (unknown ids left out)', () => {
    const table = new ChainTable();
    const coins = new Map([['USDT', coin('USDT', ['USDT-TRC20', 'USDT-X Layer', 'USDT-Nowhere'])], ['BTCK', coin('BTCK', ['BTCK-OKTC'])]]);
    const tickers = new Map([['BTCUSDT', { symbol: 'BTCUSDT' } as TickerRecord]]);
    const got = mentionLists(coins, tickers, (id) => table.chainOf('okx', id));
    expect(got).toEqual({ coins: new Set(['USDT', 'BTCK']), symbols: new Set(['BTCUSDT']), chains: new Set(['tron', 'x-layer', 'okt-chain']) });
    expect(mentions('OKX to support X Layer and OKTC deposits of USDT', got, { incidental: true })).toEqual({ coins: ['USDT'], symbols: [], chains: ['x-layer', 'okt-chain'] });
  });
});

describe('chainNames: the names titles give chains', () => {
  test('every chain of the table has one, each name once, longest first', () => {
    const names = chainNames();
    expect(new Set(names.map((n) => n.chain))).toEqual(new Set(CHAIN_TABLE.map(([chain]) => chain)));
    expect(new Set(names.map((n) => n.name.toLowerCase())).size).toBe(names.length);
    expect(names.map((n) => n.name.length)).toEqual([...names.map((n) => n.name.length)].sort((a, b) => b - a));
    expect(names.filter((n) => ['Arbitrum One', 'x layer', 'OKTC', 'BEP20', 'Omni Layer', 'base'].includes(n.name))).toEqual([
      { name: 'Arbitrum One', chain: 'arbitrum', qualified: false },
      { name: 'Omni Layer', chain: 'omni', qualified: false },
      { name: 'x layer', chain: 'x-layer', qualified: false },
      { name: 'BEP20', chain: 'bsc', qualified: false },
      { name: 'OKTC', chain: 'okt-chain', qualified: false },
      { name: 'base', chain: 'base', qualified: true },
    ]);
    expect(names.some((n) => ['crypto', 'omni'].includes(n.name.toLowerCase()))).toBe(false);
  });
});

describe('mentions: a title an exchange controls never holds the poll', () => {
  test('a huge title of capitals, parentheses, list words and chain names is read up to TITLE_READ characters, fast', () => {
    const hostile = `Will Delist ${'A'.repeat(50_000)}b (${'B'.repeat(50_000)} ${'list '.repeat(20_000)}${'ARBITRUM-'.repeat(10_000)}`;
    const started = Date.now();
    expect(mentions(`Will Delist RGT, ${hostile}`, lists('RGT', '', 'arbitrum'), { incidental: true })).toEqual({ coins: ['RGT'], symbols: [], chains: [] });
    expect(mentions(`${'x'.repeat(TITLE_READ)} (RGT)`, lists('RGT', '', ''))).toEqual(NONE);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
