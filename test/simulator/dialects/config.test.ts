/** `exchanges[].simulate.dialect` and `simulate.credentials`: validated with positions, secrets redacted. */
import { parseConfig, redactConfig, type Config } from '../../../src/config';

const FILE = 'config/spotwatch.yaml';

function parse(text: string): { ok: true; config: Config } | { ok: false; problems: string[] } {
  return parseConfig(text, FILE, {}, '/etc/spotwatch');
}

describe('simulate.dialect and simulate.credentials in the config', () => {
  it('accepts the exchange’s own dialect and a key for the embedded exchange', () => {
    const result = parse(
      'exchanges:\n  - name: main\n    simulate:\n      dialect: spot-v3\n      credentials: { api_key: K, api_secret: S, passphrase: P }\n',
    );
    if (!result.ok) throw new Error(result.problems.join('\n'));
    const exchange = result.config.exchanges[0];
    expect(exchange?.base_url).toBeUndefined();
    expect(exchange?.simulate).toMatchObject({ dialect: 'spot-v3', credentials: { api_key: 'K', api_secret: 'S', passphrase: 'P' } });
    expect(redactConfig(result.config).exchanges[0]?.simulate?.credentials).toEqual({ api_key: '<redacted>', api_secret: '<redacted>', passphrase: '<redacted>' });
  });

  it('refuses an unknown dialect and one the watcher does not read, with positions', () => {
    const unknown = parse('exchanges:\n  - name: main\n    simulate:\n      dialect: ftx\n');
    expect(unknown.ok).toBe(false);
    expect(unknown.ok ? [] : unknown.problems).toEqual([expect.stringMatching(/^config\/spotwatch\.yaml:4:16: exchanges\[0\]\.simulate\.dialect: /)]);
    const other = parse('exchanges:\n  - name: main\n    simulate:\n      dialect: binance\n');
    expect(other.ok ? [] : other.problems).toEqual([expect.stringMatching(/^config\/spotwatch\.yaml:4:16: .*must be the exchange's dialect \(spot-v3\)/)]);
  });

  it('refuses credentials without a secret', () => {
    const result = parse('exchanges:\n  - name: main\n    simulate:\n      credentials: { api_key: K }\n');
    expect(result.ok ? [] : result.problems).toEqual([`${FILE}:4:20: exchanges[0].simulate.credentials: missing required key "api_secret"`]);
  });
});
