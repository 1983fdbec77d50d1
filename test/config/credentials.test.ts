import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli';
import { parseConfig, redactConfig, type Config } from '../../src/config';
import { Sink } from '../support/sink';
import { capturedLogger } from '../support/log-capture';

/**
 * `exchanges[].credentials`: checked against the named dialect's own schema, with the position
 * of each problem (FILE:LINE:COL), required by a dialect that signs and refused by one that
 * does not; and a secret everywhere: config output and logs.
 */

const FILE = 'config/spotwatch.yaml';
const env = { BINANCE_SECRET: 's3cr3t-from-env' };

function parse(text: string): { config?: Config; problems: string[] } {
  const result = parseConfig(text, FILE, env, '/etc/spotwatch');
  return result.ok ? { config: result.config, problems: [] } : { problems: result.problems };
}

describe('credentials in the config', () => {
  it('takes the keys a dialect names, from the file or the environment, and fills the base URL', () => {
    const { config, problems } = parse(
      'exchanges:\n  - name: binance\n    dialect: binance\n    credentials: { api_key: K, api_secret: "${BINANCE_SECRET}" }\n' +
        '  - name: okx\n    dialect: okx\n    credentials:\n      api_key: K2\n      api_secret: S2\n      passphrase: P2\n',
    );
    expect(problems).toEqual([]);
    expect(config?.exchanges.map((e) => [e.name, e.base_url, e.credentials])).toEqual([
      ['binance', 'https://api.binance.com', { api_key: 'K', api_secret: 's3cr3t-from-env' }],
      ['okx', 'https://www.okx.com', { api_key: 'K2', api_secret: 'S2', passphrase: 'P2' }],
    ]);
  });

  it.each([
    ['a missing passphrase', 'exchanges:\n  - name: okx\n    dialect: okx\n    credentials: { api_key: K, api_secret: S }\n', [
      `${FILE}:4:18: exchanges[0].credentials.passphrase: Required`,
    ]],
    ['an unknown key', 'exchanges:\n  - name: bybit\n    dialect: bybit\n    credentials:\n      api_key: K\n      api_secret: S\n      secret: S\n', [
      `${FILE}:5:7: exchanges[0].credentials: Unrecognized key(s) in object: 'secret'`,
    ]],
    ['an empty secret', 'exchanges:\n  - name: mexc\n    dialect: mexc\n    credentials: { api_key: K, api_secret: "" }\n', [
      `${FILE}:4:44: exchanges[0].credentials.api_secret: String must contain at least 1 character(s)`,
    ]],
    ['no credentials for a dialect that signs', 'exchanges:\n  - name: binance\n    dialect: binance\n', [
      `${FILE}:3:14: exchanges[0].dialect: dialect binance signs its requests: credentials are required (a read-only API key)`,
    ]],
    ['credentials for a dialect that signs nothing', 'exchanges:\n  - name: main\n    credentials: { api_key: K }\n', [
      `${FILE}:3:18: exchanges[0].credentials: dialect spot-v3 signs nothing: remove credentials`,
    ]],
  ])('reports %s with its position', (_what, text, expected) => {
    expect(parse(text).problems).toEqual(expected);
  });

  it('never shows a secret: redacted config, and logs', () => {
    const { config } = parse('exchanges:\n  - name: okx\n    dialect: okx\n    credentials: { api_key: K9, api_secret: S9, passphrase: P9 }\n');
    expect(redactConfig(config as Config).exchanges[0]?.credentials).toEqual({ api_key: '<redacted>', api_secret: '<redacted>', passphrase: '<redacted>' });
    expect(config?.exchanges[0]?.credentials).toEqual({ api_key: 'K9', api_secret: 'S9', passphrase: 'P9' });
    const { logger, text } = capturedLogger('info');
    logger.info({ exchange: config?.exchanges[0] }, 'loaded');
    logger.info({ api_key: 'K9', api_secret: 'S9', passphrase: 'P9' }, 'flat');
    expect(text()).not.toMatch(/K9|S9|P9/);
  });
});

it('check-config gives every credentials problem with its position, and no secret', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'spotwatch-credentials-'));
  try {
    const file = join(dir, 'c.yaml');
    writeFileSync(file, 'exchanges:\n  - name: okx\n    dialect: okx\n    credentials:\n      api_key: K7\n      api_secret: S7\n  - name: binance\n    dialect: binance\n');
    const stdout = new Sink();
    const stderr = new Sink();
    const code = await main(['check-config', '--config', file], { stdout, stderr, env: {} });
    expect(code).not.toBe(0);
    const text = stdout.text + stderr.text;
    expect(text).toContain(`${file}:5:7: exchanges[0].credentials.passphrase: Required`);
    expect(text).toContain(`${file}:8:14: exchanges[1].dialect: dialect binance signs its requests: credentials are required (a read-only API key)`);
    expect(text).not.toMatch(/K7|S7/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
