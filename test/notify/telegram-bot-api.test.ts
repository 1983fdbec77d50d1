import { MockAgent } from 'undici';
import { manualClock } from '../../src/lib/clock';
import { callBot } from '../../src/notify/telegram/bot-api';

describe('callBot, an answer that is not the Bot API\'s', () => {
  const NOW = Date.parse('2026-01-02T12:00:00Z');
  let agent: MockAgent;
  beforeEach(() => {
    agent = new MockAgent();
    agent.disableNetConnect();
  });
  afterEach(() => agent.close());

  it.each([
    ['delay-seconds', '3', 3000],
    ['fractional seconds', '0.5', 500],
    ['an HTTP date', 'Fri, 02 Jan 2026 12:00:07 GMT', 7000],
  ])('waits the Retry-After of a proxy\'s 503 (%s)', async (_, header, wait) => {
    agent.get('https://tg.test').intercept({ path: '/botT0KEN/sendMessage', method: 'POST' }).reply(503, 'Service Unavailable', { headers: { 'retry-after': header } });
    const answer = await callBot({ dispatcher: agent, clock: manualClock(NOW) }, { apiUrl: 'https://tg.test', token: 'T0KEN' }, 'sendMessage', {}, 1000);
    expect(answer).toEqual({ ok: false, status: 503, errorCode: 503, description: 'HTTP 503', retryAfterMs: wait });
  });

  it('prefers the Bot API\'s own parameters.retry_after to the header', async () => {
    agent.get('https://tg.test').intercept({ path: '/botT0KEN/sendMessage', method: 'POST' })
      .reply(429, { ok: false, error_code: 429, description: 'Too Many Requests: retry after 4', parameters: { retry_after: 4 } }, { headers: { 'retry-after': '1' } });
    const answer = await callBot({ dispatcher: agent, clock: manualClock(NOW) }, { apiUrl: 'https://tg.test', token: 'T0KEN' }, 'sendMessage', {}, 1000);
    expect(answer).toMatchObject({ ok: false, status: 429, retryAfterMs: 4000 });
  });
});
