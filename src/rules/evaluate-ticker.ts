/** Ticker rules: a measure of each ticker its match takes against thresholds (with hysteresis), and `missing`. */
import { literalValues } from '../lib/pattern';
import type { TemplateFields } from '../lib/template';
import type { TickerRecord } from '../snapshot/model';
import type { EvaluationInput } from './evaluation';
import { baseLabels, type Instance } from './instance';
import { matchesAll } from './match';
import { measure } from './measure';
import type { Condition, Rule } from './model';

export type TickerCondition = Extract<Condition, { type: 'ticker' }>;

const NOT_BEYOND = { holds: false, threshold: undefined } as const;

/**
 * True when the value is beyond a threshold; once active, it must come back inside by the
 * hysteresis margin. `wasActive` is asked only when the answer depends on it: a value outside
 * even the widened band never holds, and one beyond `above` always does.
 */
function beyondOnce(c: TickerCondition, value: number, wasActive: () => boolean): { holds: boolean; threshold: number | undefined } {
  if (c.hysteresis === 0) return beyond(c, value, 0);
  if (!beyond(c, value, c.hysteresis).holds) return NOT_BEYOND;
  if (c.above !== undefined && value > c.above) return { holds: true, threshold: c.above };
  return beyond(c, value, wasActive() ? c.hysteresis : 0);
}

function beyond(c: TickerCondition, value: number, margin: number): { holds: boolean; threshold: number | undefined } {
  if (c.above !== undefined && value > c.above - margin) return { holds: true, threshold: c.above };
  if (c.below !== undefined && value < c.below + margin) return { holds: true, threshold: c.below };
  return { holds: false, threshold: undefined };
}

function tickerFields(t: TickerRecord): TemplateFields {
  return {
    symbol: t.symbol,
    last_price: t.lastPrice,
    open_price: t.openPrice,
    bid_price: t.bidPrice,
    ask_price: t.askPrice,
    volume: t.volume,
    quote_volume: t.quoteVolume,
  };
}

export function evaluateTicker(rule: Rule, c: TickerCondition, input: EvaluationInput, out: Instance[]): void {
  const exchange = input.snapshot.exchange;
  if (c.measure === 'missing') {
    for (const symbol of expectedFor(rule, input.expectedSymbols)) {
      // Unknown (set aside on the first answer, no value yet) is not missing.
      if (input.snapshot.tickers.has(symbol) || input.snapshot.unknownSymbols?.has(symbol) === true || !matchesAll(rule.match, { exchange, symbol, kind: 'missing' })) continue;
      out.push({
        rule,
        entity: `${exchange}\u0000${symbol}`,
        labels: baseLabels(rule, exchange, { symbol, kind: 'missing' }),
        fields: { exchange, kind: 'missing', symbol },
        value: 1,
      });
    }
    return;
  }
  for (const t of input.snapshot.tickers.values()) {
    if (rule.match.length > 0 && !matchesAll(rule.match, { exchange, symbol: t.symbol, kind: c.measure })) continue;
    const value = measure(c.measure, t, input.now, input.samples, c.windowMs);
    if (value === undefined) continue;
    const { holds, threshold } = beyondOnce(c, value, () => input.wasActive(rule.id, `${exchange}\u0000${t.symbol}`));
    if (!holds) continue;
    out.push({
      rule,
      entity: `${exchange}\u0000${t.symbol}`,
      labels: baseLabels(rule, exchange, { symbol: t.symbol, kind: c.measure }),
      fields: { exchange, kind: c.measure, ...tickerFields(t), value: round(value), threshold, window: c.windowMs !== undefined ? `${c.windowMs / 1000}s` : undefined },
      value,
    });
  }
}

/** The symbols a `missing` rule watches: the expected set, narrowed by literal symbols in its match. */
function expectedFor(rule: Rule, expected: ReadonlySet<string>): string[] {
  const m = rule.match.find((x) => x.label === 'symbol');
  const named = m !== undefined ? literalValues(m.pattern) : [];
  return [...new Set([...expected, ...named])];
}

function round(v: number): number {
  return Math.round(v * 10_000) / 10_000;
}
