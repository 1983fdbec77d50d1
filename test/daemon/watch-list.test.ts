import { stackBehindDouble, type DoubledStack, type Stack } from '../support/daemon-harness';
import type { ExchangeDouble } from '../support/exchange-double';
import { waitFor } from '../support/wait';
import { metricValue } from '../support/loopback';

/**
 * A watched symbol delisted where the deployment answers -2007: the `missing` rule fires for
 * it and for no other symbol, and the exchange stays up.
 */

jest.setTimeout(60_000);

const RULES = `
rules:
  - alert: Missing
    ticker: missing
`;

// Six symbols, so one going is within the guard's 20 % (a larger shrink is held as suspect first).
const WATCHED = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'XRPUSDT', 'BNBUSDT', 'DOGEUSDT'];
const GONE = 'ETHUSDT';

describe('a delisted watched symbol', () => {
  let stacked: DoubledStack;
  let s: Stack;
  let double: ExchangeDouble;
  let url: string;

  beforeAll(async () => {
    stacked = await stackBehindDouble(RULES, { coins: 30, exchange: `    symbols: [${WATCHED.join(', ')}]\n` });
    ({ s, double, url } = stacked);
  });
  afterAll(() => stacked.close());

  const metric = (name: string, labels: string): Promise<number> => metricValue(url, name, labels, Number.NaN);

  it('fires `missing` for that symbol only; the others are polled as usual and the exchange stays up', async () => {
    expect(s.bodies()).toEqual([]); // every watched symbol is listed
    double.respond = (path, upstream) => {
      const q = new URL(path, 'http://x').searchParams.get('symbols');
      if (q !== null && (JSON.parse(q) as string[]).includes(GONE)) return { status: 400, body: '{"code":-2007,"msg":"Symbol does not exist"}' };
      return upstream();
    };
    await waitFor(() => s.bodies().some((b) => b.groupLabels.alertname === 'Missing'), 'the Missing notification');
    const polls = await metric('spotwatch_poll_duration_seconds_count', 'exchange="main",endpoint="tickers"');
    await waitFor(async () => (await metric('spotwatch_poll_duration_seconds_count', 'exchange="main",endpoint="tickers"')) >= polls + 3, 'three more ticker polls');

    const missing = s.bodies().filter((b) => b.groupLabels.alertname === 'Missing').flatMap((b) => b.alerts);
    expect([...new Set(missing.map((a) => a.labels.symbol))]).toEqual([GONE]);
    expect(s.bodies().flatMap((b) => b.alerts.map((a) => a.labels.alertname))).not.toContain('ExchangeDown');
    expect(await metric('spotwatch_up', 'exchange="main"')).toBe(1);
    expect(await metric('spotwatch_poll_errors_total', 'exchange="main",endpoint="tickers",kind="http_4xx"')).toBe(0);
    expect(await metric('spotwatch_poll_errors_total', 'exchange="main",endpoint="tickers",kind="http_3xx"')).toBe(0);
    for (const symbol of WATCHED.filter((x) => x !== GONE)) {
      expect(await metric('spotwatch_ticker_last_price', `exchange="main",symbol="${symbol}"`)).toBeGreaterThan(0);
    }
  });
});
