/**
 * Well-known coins, first in every generated market and the same for every seed, so
 * scenarios (config/scenarios/demo.yaml) can name them and their networks.
 */
import { findChain } from './chains';

export interface KnownNetwork {
  network: string;
  name: string;
  fee: string;
  min: string;
  multiple: string;
  confirm: number;
  contract: string;
  explorer: string;
  tag: boolean;
  internalMin: string | null;
  deposit: boolean;
  withdraw: boolean;
  depositDesc: string | null;
  withdrawDesc: string | null;
}

export interface KnownCoin {
  coin: string;
  name: string;
  usd: number;
  networks: KnownNetwork[];
}

type Extra = Partial<Pick<KnownNetwork, 'tag' | 'internalMin' | 'deposit' | 'withdraw' | 'depositDesc' | 'withdrawDesc' | 'name'>>;

function base(extra: Extra): Pick<KnownNetwork, 'internalMin' | 'deposit' | 'withdraw' | 'depositDesc' | 'withdrawDesc'> {
  return {
    internalMin: extra.internalMin ?? null,
    deposit: extra.deposit ?? true,
    withdraw: extra.withdraw ?? true,
    depositDesc: extra.depositDesc ?? null,
    withdrawDesc: extra.withdrawDesc ?? null,
  };
}

/** A coin's own chain: no contract, no explorer prefix. */
function native(network: string, name: string, fee: string, min: string, multiple: string, confirm: number, extra: Extra = {}): KnownNetwork {
  return { network, name, fee, min, multiple, confirm, contract: '', explorer: '', tag: extra.tag ?? false, ...base(extra) };
}

/** A token on one of the shared chains of catalog/chains.ts. */
function token(network: string, contract: string, fee: string, min: string, multiple: string, extra: Extra = {}): KnownNetwork {
  const chain = findChain(network);
  if (chain === undefined) throw new Error(`unknown chain ${network}`);
  return {
    network, name: extra.name ?? chain.name, fee, min, multiple, confirm: chain.minConfirm, contract,
    explorer: chain.explorer, tag: extra.tag ?? chain.tag, ...base(extra),
  };
}

const ERC20 = 'Ethereum(ERC20)';
const BEP20 = 'BNB Smart Chain(BEP20)';

export const WELL_KNOWN_COINS: readonly KnownCoin[] = [
  { coin: 'BTC', name: 'Bitcoin', usd: 65000, networks: [
    native('BTC', 'Bitcoin', '0.0002', '0.001', '1E-8', 2, { internalMin: '0.00000001' }),
    token(BEP20, '0x7130d2A12B9BCbFAe4f2634d864A1Ee1Ce3Ead9c', '0.0000039', '0.00001', '1E-8'),
    native('LIGHTNING', 'Lightning Network', '0.000001', '0.00001', '1E-8', 1),
  ] },
  { coin: 'ETH', name: 'Ethereum', usd: 3200, networks: [
    native('ETH', 'Ethereum (ERC20)', '0.0008', '0.0016', '1e-8', 64, { internalMin: '0.00000001' }),
    native('ARBITRUM', 'Arbitrum One', '0.0001', '0.0008', '1e-8', 12),
    native('OPTIMISM', 'Optimism', '0.0001', '0.0008', '1e-8', 12),
    native('BASE', 'Base', '0.00005', '0.0008', '1e-8', 12),
    token(BEP20, '0x2170Ed0880ac9A755fd29B2688956BD959F933F8', '0.000078', '0.00098', '1e-8'),
  ] },
  { coin: 'USDT', name: 'TetherUS', usd: 1, networks: [
    token('Tron(TRC20)', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', '1', '10', '0.000001', { internalMin: '0.000001' }),
    token(ERC20, '0xdAC17F958D2ee523a2206206994597C13D831ec7', '3.2', '10', '0.000001'),
    token(BEP20, '0x55d398326f99059fF775485246999027B3197955', '0.29', '10', '0.000001'),
    token('SOL', 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB', '1', '10', '0.000001'),
    token('Polygon(POS)', '0xc2132D05D31c914a87C6611C10748AEb04B58e8F', '0.8', '10', '0.000001'),
    token('TON', 'EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs', '0.5', '10', '0.000001'),
    token('ARBITRUM', '0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9', '0.4', '10', '0.000001'),
    token('AVAXC', '0x9702230A8Ea53601f5cD2dc00fDBc13d4dF4A8c7', '0.6', '10', '0.000001'),
  ] },
  { coin: 'USDC', name: 'USD Coin', usd: 1, networks: [
    token(ERC20, '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', '3.5', '10', '0.000001'),
    token('SOL', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', '1', '10', '0.000001'),
    token(BEP20, '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d', '0.29', '10', '0.000001'),
    token('BASE', '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', '0.2', '10', '0.000001'),
    token('ARBITRUM', '0xaf88d065e77c8cC2239327C5EDb3A432268e5831', '0.4', '10', '0.000001'),
    token('Polygon(POS)', '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359', '0.8', '10', '0.000001'),
  ] },
  { coin: 'BNB', name: 'BNB', usd: 580, networks: [
    native(BEP20, 'BNB Smart Chain (BEP20)', '0.0005', '0.01', '1E-8', 15),
    native('BNB Beacon Chain(BEP2)', 'BNB Beacon Chain (BEP2)', '0.001', '0.02', '1E-8', 1, {
      deposit: false, withdraw: false,
      depositDesc: 'BNB Beacon Chain has been sunset; deposits are closed',
      withdrawDesc: 'BNB Beacon Chain has been sunset; withdrawals are closed',
    }),
    token(ERC20, '0xB8c77482e45F1F44dE1745F52C74426C631bDD52', '0.0061', '0.025', '1E-8'),
  ] },
  { coin: 'SOL', name: 'Solana', usd: 150, networks: [
    native('SOL', 'Solana', '0.008', '0.1', '1E-8', 1),
    token(BEP20, '0x570A5D26f7765Ecb712C0924E4De545B89fD43dF', '0.0021', '0.021', '1E-8'),
  ] },
  { coin: 'TRX', name: 'TRON', usd: 0.12, networks: [
    native('TRX', 'Tron (TRC20)', '1', '10', '0.000001', 1),
    token(BEP20, '0xCE7de646e7208a4Ef112cb6ed5038FA6cC6b12e3', '2.5', '25', '0.000001'),
  ] },
  { coin: 'XRP', name: 'XRP', usd: 0.55, networks: [
    native('XRP', 'Ripple', '0.2', '2', '0.000001', 1, { tag: true }),
    token(BEP20, '0x1D2F0da169ceB9fC7B3144628dB156f3F6c60dBE', '0.53', '5.4', '0.000001'),
  ] },
  { coin: 'DOGE', name: 'Dogecoin', usd: 0.15, networks: [
    native('DOGE', 'Dogecoin', '4', '20', '1E-8', 40),
    token(BEP20, '0xbA2aE424d960c26247Dd6c32edC70B295c744C43', '2', '20', '1E-8'),
  ] },
  { coin: 'ADA', name: 'Cardano', usd: 0.45, networks: [native('ADA', 'Cardano', '0.8', '5', '0.000001', 30)] },
  { coin: 'TON', name: 'Toncoin', usd: 5.5, networks: [native('TON', 'The Open Network', '0.01', '0.5', '1e-8', 1, { tag: true })] },
  { coin: 'AVAX', name: 'Avalanche', usd: 28, networks: [
    native('AVAXC', 'AVAX C-Chain', '0.008', '0.1', '1E-8', 12),
    native('AVAX', 'AVAX X-Chain', '0.01', '0.1', '1E-8', 1),
  ] },
  { coin: 'LINK', name: 'Chainlink', usd: 14, networks: [
    token(ERC20, '0x514910771AF9Ca656af840dff83E8264EcF986CA', '0.3', '0.6', '1E-8'),
    token(BEP20, '0xF8A0BF9cF54Bb92F17374d9e9A321E6a111a51bD', '0.022', '0.22', '1E-8'),
  ] },
  { coin: 'DOT', name: 'Polkadot', usd: 6.5, networks: [native('DOT', 'Polkadot', '0.1', '1.5', '1e-8', 1)] },
  { coin: 'POL', name: 'Polygon Ecosystem Token', usd: 0.5, networks: [
    native('Polygon(POS)', 'Polygon PoS', '0.1', '20', '1E-8', 128),
    token(ERC20, '0x455e53CBB86018Ac2B8092FdCd39d8444aFFC3F6', '9.7', '20', '1E-8'),
  ] },
  { coin: 'LTC', name: 'Litecoin', usd: 75, networks: [
    native('LTC', 'Litecoin', '0.001', '0.002', '1E-8', 6),
    token(BEP20, '0x4338665CBB7B2485A8855A139b75D5e34AB0DB94', '0.0004', '0.004', '1E-8'),
  ] },
  { coin: 'SHIB', name: 'SHIBA INU', usd: 0.000018, networks: [
    token(ERC20, '0x95aD61b0a150d79219dCF64E1E6Cc01f0B64C4cE', '160000', '320000', '0.01'),
    token(BEP20, '0x2859e4544C4bB03966803b044A93563Bd2D0DD4D', '2000', '20000', '0.01'),
  ] },
  { coin: 'BCH', name: 'Bitcoin Cash', usd: 380, networks: [native('BCH', 'Bitcoin Cash', '0.0008', '0.002', '1E-8', 6)] },
  { coin: 'XLM', name: 'Stellar Lumens', usd: 0.1, networks: [native('XLM', 'Stellar Lumens', '0.01', '1', '1E-7', 1, { tag: true })] },
  { coin: 'ATOM', name: 'Cosmos', usd: 6, networks: [native('ATOM', 'Cosmos', '0.004', '0.02', '0.000001', 15, { tag: true })] },
  { coin: 'UNI', name: 'Uniswap', usd: 8, networks: [
    token(ERC20, '0x1f9840a85d5aF5bf1D1762F925BDADdC4201F984', '0.45', '0.9', '1E-8'),
    token(BEP20, '0xBf5140A22578168FD562DCcF235E5D43A02ce9B1', '0.039', '0.39', '1E-8'),
  ] },
  { coin: 'NEAR', name: 'NEAR Protocol', usd: 5, networks: [native('NEAR', 'NEAR Protocol', '0.01', '0.2', '1e-8', 1)] },
  { coin: 'APT', name: 'Aptos', usd: 8, networks: [native('APT', 'Aptos', '0.002', '0.02', '1e-8', 1)] },
  { coin: 'ARB', name: 'Arbitrum', usd: 0.7, networks: [
    token('ARBITRUM', '0x912CE59144191C1204E64559FE8253a0e49E6548', '0.12', '1.2', '1E-8'),
    token(ERC20, '0xB50721BCf8d664c30412Cfbc6cf7a15145234ad1', '4.6', '9.2', '1E-8'),
  ] },
  { coin: 'OP', name: 'Optimism', usd: 1.7, networks: [token('OPTIMISM', '0x4200000000000000000000000000000000000042', '0.05', '0.5', '1E-8')] },
  { coin: 'FIL', name: 'Filecoin', usd: 4.5, networks: [
    native('FIL', 'Filecoin', '0.001', '0.01', '1E-8', 900),
    token(BEP20, '0x0D8Ce2A99Bb6e3B7Db580eD848240e4a0F9aE153', '0.066', '0.66', '1E-8'),
  ] },
  { coin: 'ETC', name: 'Ethereum Classic', usd: 22, networks: [native('ETC', 'Ethereum Classic', '0.01', '0.02', '1E-8', 500)] },
  { coin: '1INCH', name: '1inch', usd: 0.35, networks: [
    token(ERC20, '0x111111111117dC0aa78b770fA6A738034120C302', '10', '20', '1E-8'),
    token(BEP20, '0x111111111117dC0aa78b770fA6A738034120C302', '0.86', '8.6', '1E-8'),
  ] },
  { coin: 'AAVE', name: 'Aave', usd: 150, networks: [
    token(ERC20, '0x7Fc66500c84A76Ad7e9c93437bFc5Ac33E2DDaE9', '0.025', '0.05', '1E-8'),
    token(BEP20, '0xfb6115445Bff7b52FeB98650C87f44907E58f802', '0.002', '0.02', '1E-8'),
  ] },
  { coin: 'PEPE', name: 'Pepe', usd: 0.00001, networks: [token(ERC20, '0x6982508145454Ce325dDbE47a25d4ec3d2311933', '1200000', '2400000', '1')] },
  { coin: 'SUI', name: 'Sui', usd: 1.5, networks: [native('SUI', 'Sui', '0.1', '1', '1e-8', 1)] },
  { coin: 'WLD', name: 'Worldcoin', usd: 2, networks: [
    token('OPTIMISM', '0xdC6fF44d5d932Cbd77B52E5612Ba0529DC6226F1', '0.5', '2', '1E-8'),
    token(ERC20, '0x163f8C2467924be0ae7B5347228CABF260318753', '3.2', '6.4', '1E-8'),
  ] },
  { coin: 'FDUSD', name: 'First Digital USD', usd: 1, networks: [
    token(ERC20, '0xc5f0f7b66764F6ec8C8Dff7BA683102295E16409', '3.4', '10', '0.000001'),
    token(BEP20, '0xc5f0f7b66764F6ec8C8Dff7BA683102295E16409', '0.3', '10', '0.000001'),
  ] },
  { coin: 'DAI', name: 'Dai', usd: 1, networks: [
    token(ERC20, '0x6B175474E89094C44Da98b954EedeAC495271d0F', '3.4', '10', '1E-8'),
    token(BEP20, '0x1AF3F329e8BE154074D8769D1FFa4eE058B1DBc3', '0.3', '10', '1E-8'),
  ] },
  { coin: 'WBTC', name: 'Wrapped Bitcoin', usd: 65000, networks: [token(ERC20, '0x2260FAC5E5542a773Aa44fBCfeDf7C193bc2C599', '0.00005', '0.0001', '1E-8')] },
];

/** Pairs of well-known coins besides their USDT pair. */
export const KNOWN_EXTRA_PAIRS: readonly string[] = [
  'BTCUSDC', 'ETHUSDC', 'SOLUSDC', 'ETHBTC', 'BNBBTC', 'SOLBTC', 'XRPBTC', 'LTCBTC',
];

/** Coins whose USD price is pegged: their pairs barely move. */
export const STABLE_COINS: ReadonlySet<string> = new Set(['USDT', 'USDC', 'FDUSD', 'DAI']);
