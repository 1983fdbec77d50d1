import { parseConfig, type Config } from '../../src/config';
import { chainLookup, seriesFilter } from '../../src/runtime/settings';

function config(text: string): Config {
  const result = parseConfig(text, 'spotwatch.yaml', {}, '/tmp');
  if (!result.ok) throw new Error(result.problems.join('\n'));
  return result.config;
}

describe('chains from the config', () => {
  const c = config('exchanges:\n  - name: weex\n    base_url: http://127.0.0.1:1\nchains:\n  aliases: { KSMSM: kusama }\nmetrics:\n  include: { chain: "tron|kusama" }\n  exclude: { network: "TRX" }\n');

  test('each exchange by its dialect, config aliases first', () => {
    const chainOf = chainLookup(c);
    expect([chainOf('weex', 'Tron(TRC20)'), chainOf('weex', 'KSMSM'), chainOf('weex', 'NOPE'), chainOf('gone', 'TRC20')]).toEqual(['tron', 'kusama', null, 'tron']);
  });

  test.each([
    ['network', 'Tron(TRC20)', 'weex', true],
    ['network', 'KSMSM', 'weex', true],
    ['network', 'BEP20', 'weex', false],
    ['network', 'NOPE', 'weex', false], // unknown chain: tested as ""
    ['network', 'TRX', 'weex', false], // tron, but the network is excluded
    ['coin', 'USDT', undefined, true],
  ] as const)('metrics filter: %s %s at %s -> %s', (label, value, exchange, kept) => {
    expect(seriesFilter(c)(label, value, exchange)).toBe(kept);
  });
});
