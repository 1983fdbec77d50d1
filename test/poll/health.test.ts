import { PollHealth } from '../../src/poll/health';

describe('PollHealth: readiness, up and the last poll, from polls alone', () => {
  const T = Date.parse('2026-11-23T00:00:00Z');
  it.each([
    { name: 'nothing polled yet', polls: [], ready: false, up: false },
    { name: 'coins answered, tickers not yet', polls: [['coins', 'ok']], ready: false, up: false },
    { name: 'both answered', polls: [['coins', 'ok'], ['tickers', 'ok']], ready: true, up: true },
    { name: 'both answered, then tickers failed', polls: [['coins', 'ok'], ['tickers', 'ok'], ['tickers', 'fail']], ready: true, up: false },
    { name: 'both answered, then coins held as suspect', polls: [['coins', 'ok'], ['tickers', 'ok'], ['coins', 'held']], ready: true, up: true },
    { name: 'a failure, then an answer', polls: [['coins', 'fail'], ['coins', 'ok'], ['tickers', 'ok']], ready: true, up: true },
    { name: 'held only: answered but never taken', polls: [['coins', 'held'], ['tickers', 'held']], ready: false, up: false },
  ] as const)('$name', ({ polls, ready, up }) => {
    const h = new PollHealth();
    polls.forEach(([endpoint, outcome], i) => {
      if (outcome === 'fail') h.failure('x', endpoint, T + i, 'timeout', `${endpoint}: timed out`);
      else h.answer('x', endpoint, T + i, outcome === 'ok');
    });
    expect({ ready: h.ready('x'), up: h.up('x'), other: h.ready('y') }).toEqual({ ready, up, other: false });
  });

  it('keeps the last poll of each endpoint, with the kind and error of a failure, and forgets an exchange', () => {
    const h = new PollHealth();
    h.answer('x', 'coins', T, true);
    h.failure('x', 'tickers', T + 1000, 'http_5xx', 'tickers: 503');
    expect(h.lastPolls('x')).toEqual({
      coins: { at: '2026-11-23T00:00:00.000Z', ok: true },
      tickers: { at: '2026-11-23T00:00:01.000Z', ok: false, kind: 'http_5xx', error: 'tickers: 503' },
    });
    h.answer('x', 'tickers', T + 2000, true);
    h.forget('x');
    expect({ ready: h.ready('x'), up: h.up('x') }).toEqual({ ready: false, up: false });
  });
});
