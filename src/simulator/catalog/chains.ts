/**
 * The chains tokens live on, as a real exchange names them: plain ids (`SOL`, `ARBITRUM`)
 * mixed with chain labels in parentheses (`Tron(TRC20)`), because clients must cope with both.
 */

export type AddressStyle = 'evm' | 'tron' | 'solana' | 'ton';

export interface TokenChain {
  network: string;
  name: string;
  /** Block-explorer prefix a token's contract address is appended to. */
  explorer: string;
  address: AddressStyle;
  minConfirm: number;
  /** Typical withdrawal fee in USD, converted to coin units per token. */
  feeUsd: number;
  /** A memo is needed to credit deposits (exchange-pooled addresses). */
  tag: boolean;
  /** Relative frequency among generated tokens. */
  weight: number;
}

export const TOKEN_CHAINS: readonly TokenChain[] = [
  { network: 'Ethereum(ERC20)', name: 'Ethereum (ERC20)', explorer: 'https://etherscan.io/token/', address: 'evm', minConfirm: 64, feeUsd: 3, tag: false, weight: 34 },
  { network: 'BNB Smart Chain(BEP20)', name: 'BNB Smart Chain (BEP20)', explorer: 'https://bscscan.com/token/', address: 'evm', minConfirm: 15, feeUsd: 0.3, tag: false, weight: 24 },
  { network: 'SOL', name: 'Solana', explorer: 'https://solscan.io/token/', address: 'solana', minConfirm: 1, feeUsd: 0.5, tag: false, weight: 10 },
  { network: 'ARBITRUM', name: 'Arbitrum One', explorer: 'https://arbiscan.io/token/', address: 'evm', minConfirm: 12, feeUsd: 0.2, tag: false, weight: 6 },
  { network: 'BASE', name: 'Base', explorer: 'https://basescan.org/token/', address: 'evm', minConfirm: 12, feeUsd: 0.1, tag: false, weight: 6 },
  { network: 'Tron(TRC20)', name: 'Tron (TRC20)', explorer: 'https://tronscan.org/#/token20/', address: 'tron', minConfirm: 19, feeUsd: 1, tag: false, weight: 4 },
  { network: 'Polygon(POS)', name: 'Polygon PoS', explorer: 'https://polygonscan.com/token/', address: 'evm', minConfirm: 128, feeUsd: 0.1, tag: false, weight: 4 },
  { network: 'OPTIMISM', name: 'Optimism', explorer: 'https://optimistic.etherscan.io/token/', address: 'evm', minConfirm: 12, feeUsd: 0.1, tag: false, weight: 3 },
  { network: 'AVAXC', name: 'AVAX C-Chain', explorer: 'https://snowtrace.io/token/', address: 'evm', minConfirm: 12, feeUsd: 0.2, tag: false, weight: 3 },
  { network: 'TON', name: 'The Open Network', explorer: 'https://tonviewer.com/', address: 'ton', minConfirm: 1, feeUsd: 0.2, tag: true, weight: 2 },
];

export function findChain(network: string): TokenChain | undefined {
  return TOKEN_CHAINS.find((c) => c.network === network);
}
