/**
 * The most coins a simulated market may have (the config's `simulate.coins`, `simulate --coins`):
 * five times the default of 4,000, which is about what the largest exchanges list. A market's
 * memory grows with it (20,000 coins: about 70 MB, built in 2 s); a mistyped 999999999 grew the
 * process by 90 MB/s until it died.
 */
export const MAX_SIMULATED_COINS = 20_000;
