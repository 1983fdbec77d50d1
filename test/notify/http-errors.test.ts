import { statusError } from '../../src/notify/kit/http-errors';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

describe('statusError: how an HTTP receiver failure is classified', () => {
  it.each([
    // status, Retry-After, reason, retryable, retryAfterMs
    [429, '7', 'rate_limited', true, 7_000],
    [429, 'Sun, 22 Nov 2026 12:00:30 GMT', 'rate_limited', true, 30_000],
    [429, undefined, 'rate_limited', true, undefined],
    [429, 'soon', 'rate_limited', true, undefined],
    [429, '0.05', 'rate_limited', true, 50],
    [429, '2026', 'rate_limited', true, 2_026_000],
    [429, '-5', 'rate_limited', true, undefined],
    [429, 'Sunday, 22-Nov-26 12:00:30 GMT', 'rate_limited', true, 30_000],
    [503, '120', 'server_error', true, 120_000],
    [503, 'Sun, 22 Nov 2026 11:59:00 GMT', 'server_error', true, 0],
    [500, '5', 'server_error', true, undefined],
    [502, undefined, 'server_error', true, undefined],
    [400, '5', 'client_error', false, undefined],
    [404, undefined, 'client_error', false, undefined],
  ] as const)('HTTP %i with Retry-After %p: %s, retryable %p, next attempt after %p ms', (status, retryAfter, reason, retryable, after) => {
    const e = statusError('webhook', status, retryAfter, NOW);
    expect({ message: e.message, reason: e.reason, retryable: e.retryable, retryAfterMs: e.retryAfterMs }).toEqual({ message: `webhook answered HTTP ${status}`, reason, retryable, retryAfterMs: after });
  });
});
