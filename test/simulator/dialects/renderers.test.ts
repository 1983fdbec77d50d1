/**
 * Each dialect renderer against a recorded real answer of its exchange (fixtures/, sources in
 * fixtures/SOURCES.md): the same kind of record has the same keys and value types. null on
 * either side stands for "no value" and matches any type (exchanges send null for absent text).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createMarket } from '../../../src/simulator/market/create-market';
import type { SimCoin } from '../../../src/simulator/market/model';
import { rendererOf } from '../../../src/simulator/dialects/registry';
import { SIMULATOR_DIALECTS, type SimulatorDialect } from '../../../src/simulator/dialects/names';
import type { Answer, DialectRenderer, ModelTicker } from '../../../src/simulator/dialects/types';
import { ratioToPercent, truncate } from '../../../src/simulator/dialects/common';
import { alignCloseTime, createTickerBook } from '../../../src/simulator/ticker/book';

type Json = Record<string, unknown>;
type Named = Exclude<SimulatorDialect, 'spot-v3'>;

const NOW = Date.UTC(2026, 10, 20, 12, 0, 0);
const market = createMarket({ seed: 1, coins: 60 });
const book = createTickerBook(market);

function modelTicker(name: string): ModelTicker {
  const s = market.symbols.get(name);
  if (s === undefined) throw new Error(`no symbol ${name}`);
  return { ...(JSON.parse(book.one(s, alignCloseTime(NOW))) as ModelTicker), base: s.base, quote: s.quote };
}

const source = {
  all: () => [modelTicker('BTCUSDT')],
  one: (name: string) => (market.symbols.has(name) ? modelTicker(name) : undefined),
};

/** USDT with one token network (a contract), the kind of record every fixture holds. */
function tokenCoin(): SimCoin {
  const usdt = market.coins.get('USDT');
  const token = usdt?.networks.find((n) => n.contractAddress !== '');
  if (usdt === undefined || token === undefined) throw new Error('no USDT token network in the model');
  return { ...usdt, networks: [token] };
}

function fixture(name: Named): Json {
  return JSON.parse(readFileSync(join(__dirname, 'fixtures', `${name}.json`), 'utf8')) as Json;
}

function body(answer: Answer): unknown {
  return answer.raw === true ? JSON.parse(String(answer.body)) : JSON.parse(JSON.stringify(answer.body));
}

const at = (v: unknown, ...path: (string | number)[]): unknown =>
  path.reduce<unknown>((o, k) => (o as Record<string | number, unknown> | undefined)?.[k], v);

/** Where each answer keeps its first record. */
const COIN_AT: Record<Named, (string | number)[]> = {
  binance: [0], mexc: [0], gate: [0], bitget: ['data', 0], kucoin: ['data', 0], htx: ['data', 0], okx: ['data', 0], bybit: ['result', 'rows', 0],
};
const TICKER_AT: Record<Named, (string | number)[]> = {
  binance: [0], mexc: [0], gate: [0], bitget: ['data', 0], kucoin: ['data', 'ticker', 0], htx: ['data', 0], okx: ['data', 0], bybit: ['result', 'list', 0],
};
const TICKER_QUERY: Partial<Record<Named, string>> = { okx: 'instType=SPOT', bybit: 'category=spot' };

/** Documented fields the recorded record happened to lack (fixtures/SOURCES.md). */
const EXTRA: Partial<Record<Named, string[]>> = {
  binance: ['withdrawInternalMin'],
  okx: ['ctAddr'],
  bybit: ['contractAddress'],
  kucoin: ['depositMinSize', 'withdrawFeeRate', 'withdrawPrecision', 'maxWithdraw', 'maxDeposit', 'needTag'],
};

function kind(v: unknown): string {
  if (v === null) return 'null';
  return Array.isArray(v) ? 'array' : typeof v;
}

function shapeProblems(rendered: unknown, recorded: unknown, path: string, extra: readonly string[]): string[] {
  if (rendered === null || recorded === null) return [];
  if (kind(rendered) !== kind(recorded)) return [`${path}: ${kind(rendered)}, recorded ${kind(recorded)}`];
  if (Array.isArray(rendered) && Array.isArray(recorded)) {
    return rendered.length > 0 && recorded.length > 0 ? shapeProblems(rendered[0], recorded[0], `${path}[0]`, extra) : [];
  }
  if (kind(rendered) !== 'object') return [];
  const r = rendered as Json;
  const rec = recorded as Json;
  const missing = Object.keys(rec).filter((k) => !(k in r)).map((k) => `${path}.${k}: missing`);
  const added = Object.keys(r).filter((k) => !(k in rec) && !extra.includes(k)).map((k) => `${path}.${k}: not in the recorded answer`);
  const nested = Object.keys(rec).filter((k) => k in r).flatMap((k) => shapeProblems(r[k], rec[k], `${path}.${k}`, extra));
  return [...missing, ...added, ...nested];
}

const NAMED = SIMULATOR_DIALECTS.filter((d): d is Named => d !== 'spot-v3');

describe.each(NAMED)('the %s renderer', (name) => {
  const renderer = rendererOf(name) as DialectRenderer;
  const recorded = fixture(name);

  it('renders a coin with the recorded coin record’s keys and types', () => {
    const rendered = at(body(renderer.coins([tokenCoin()], NOW)), ...COIN_AT[name]);
    expect(shapeProblems(rendered, recorded.coin, 'coin', EXTRA[name] ?? [])).toEqual([]);
  });

  it('renders a ticker with the recorded ticker record’s keys and types', () => {
    const query = new URLSearchParams(TICKER_QUERY[name] ?? '');
    const request = { method: 'GET', path: renderer.paths.tickers, rawQuery: query.toString(), query, headers: {}, now: NOW };
    const answer = renderer.tickers(request, source);
    expect(answer.status).toBe(200);
    const expected = recorded.ticker ?? JSON.parse(recorded.ticker_text as string);
    expect(shapeProblems(at(body(answer), ...TICKER_AT[name]), expected, 'ticker', [])).toEqual([]);
  });
});

describe('values through the dialects', () => {
  const t = modelTicker('BTCUSDT');

  it('HTX writes ticker values as bare JSON numbers with the model’s exact text', () => {
    const query = new URLSearchParams();
    const text = String(rendererOf('htx')?.tickers({ method: 'GET', path: '/market/tickers', rawQuery: '', query, headers: {}, now: NOW }, source).body);
    expect(text).toContain(`"close":${t.lastPrice},`);
    expect(text).toContain(`"open":${t.openPrice},`);
  });

  it('Binance and Gate send the change in percent, the others as the model’s ratio', () => {
    expect(ratioToPercent('0.012345')).toBe('1.2345');
    expect(ratioToPercent('-0.00159')).toBe('-0.159');
    expect(ratioToPercent('0')).toBe('0');
    expect(ratioToPercent('-0.000001')).toBe('-0.0001');
    expect(truncate('-0.0001', 2)).toBe('0.00');
    expect(truncate('-1.1845', 2)).toBe('-1.18');
  });

  it('flips show in each exchange’s own status encoding', () => {
    const coin = tokenCoin();
    const closed: SimCoin = { ...coin, networks: [{ ...(coin.networks[0] as SimCoin['networks'][number]), depositEnable: false, withdrawEnable: true }] };
    const first = (name: Named): Json => at(body((rendererOf(name) as DialectRenderer).coins([closed], NOW)), ...COIN_AT[name]) as Json;
    expect(at(first('binance'), 'networkList', 0, 'depositEnable')).toBe(false);
    expect(at(first('bitget'), 'chains', 0, 'rechargeable')).toBe('false');
    expect(at(first('kucoin'), 'chains', 0, 'isDepositEnabled')).toBe(false);
    expect(at(first('gate'), 'chains', 0, 'deposit_disabled')).toBe(true);
    expect(at(first('htx'), 'chains', 0, 'depositStatus')).toBe('prohibited');
    expect(at(first('htx'), 'chains', 0, 'withdrawStatus')).toBe('allowed');
    expect(first('okx').canDep).toBe(false);
    expect(at(first('bybit'), 'chains', 0, 'chainDeposit')).toBe('0');
  });
});
