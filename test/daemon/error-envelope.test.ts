/** The daemon's log of an exchange refusing inside an HTTP 200 answer: its code and message, once. */
import { stackBehindDouble, type DoubledStack } from '../support/daemon-harness';
import { capturedLogger } from '../support/log-capture';
import { waitFor } from '../support/wait';

jest.setTimeout(60_000);

let stacked: DoubledStack;
const { logger, lines: logs } = capturedLogger('warn');

beforeAll(async () => {
  stacked = await stackBehindDouble('rules: []\n', { coins: 10, logger });
});
afterAll(() => stacked.close());

it('logs the exchange code and message of a 200 {"code":-1003} once, and polls again after the pause', async () => {
  const { double } = stacked;
  let refused = 0;
  double.respond = (path, upstream) => {
    if (!path.startsWith('/api/v3/coins') || refused > 0) return upstream();
    refused += 1;
    return { status: 200, body: '{"code":-1003,"msg":"Too many requests"}' };
  };
  const coinsAsked = (): number => double.requests.filter((p) => p.startsWith('/api/v3/coins')).length;
  const askedBefore = coinsAsked();
  await waitFor(() => refused === 1 && coinsAsked() >= askedBefore + 2, 'the refusal, then a coin list asked for again after the pause');
  const lines = logs.filter((l) => l.msg === 'poll failed' && l.endpoint === 'coins' && String(l.error).includes('-1003'));
  expect(lines).toEqual([{ level: 40, time: expect.any(Number), exchange: 'main', endpoint: 'coins', kind: 'rate_limited', ms: expect.any(Number), error: 'coins: HTTP 200 code -1003: Too many requests', msg: 'poll failed' }]);
});
