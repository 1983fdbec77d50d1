/**
 * What dialects.md section 1 lets a dialect derive besides decimals (those are derive.ts):
 * the coin flags from its networks (rule 4), spec-style symbols (rule 6), the 24 h window
 * (rule 7).
 */

/** A spec-style symbol: separators removed, upper-cased (`BTC-USDT` → `BTCUSDT`). */
export function specSymbol(symbol: string): string {
  return symbol.replace(/[-_/]/g, '').toUpperCase();
}

/** A coin flag from its networks: true iff it has one and every one's flag is (rule 4). */
export function everyNetwork<N extends { depositEnable: boolean; withdrawEnable: boolean }>(networks: readonly N[], flag: 'depositEnable' | 'withdrawEnable'): boolean {
  return networks.length > 0 && networks.every((n) => n[flag]);
}

export const DAY_MS = 86_400_000;

/** The window of a rolling 24 h ticker known only by its snapshot time (rule 7). */
export function rollingWindow(closeTime: number | null): { openTime: number | null; closeTime: number | null } {
  return { openTime: closeTime === null ? null : closeTime - DAY_MS, closeTime };
}
