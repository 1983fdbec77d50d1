import { z } from 'zod';
import { redactUrlCredentials } from '../../src/lib/redact-url';
import { byteSize, duration as durationSchema, hostPort, httpUrl, MAX_TIMER_MS, withDefault } from '../../src/lib/schema-types';

const duration = durationSchema({ max: MAX_TIMER_MS });
const positiveDuration = durationSchema({ positive: true, max: MAX_TIMER_MS });

function messages(schema: z.ZodTypeAny, value: unknown): string[] {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((i) => i.message);
}

describe('duration', () => {
  it.each([
    ['500ms', 500],
    ['15s', 15_000],
    ['5m', 300_000],
    ['4h', 14_400_000],
    ['1h30m', 5_400_000],
    ['1.5s', 1_500],
    ['0', 0],
    [0, 0],
  ])('%j is %d ms', (text, ms) => {
    expect(duration.parse(text)).toBe(ms);
  });

  it.each([
    ['30x', 'invalid duration "30x" (use 500ms, 15s, 5m, 4h)'],
    ['', 'invalid duration "" (use 500ms, 15s, 5m, 4h)'],
    ['-5s', 'invalid duration "-5s" (use 500ms, 15s, 5m, 4h)'],
    [30, 'invalid duration 30: a number needs a unit (use 500ms, 15s, 5m, 4h)'],
    [true, 'expected a duration, got true (use 500ms, 15s, 5m, 4h)'],
    [['1s'], 'expected a duration, got a list (use 500ms, 15s, 5m, 4h)'],
  ])('rejects %j', (value, message) => {
    expect(messages(duration, value)).toEqual([message]);
  });

  it('positiveDuration rejects zero', () => {
    expect(messages(positiveDuration, '0')).toEqual(['must be longer than 0s (use 500ms, 15s, 5m, 4h)']);
    expect(positiveDuration.parse('1ms')).toBe(1);
  });

  it('bounds a duration by what its use allows: a timer cannot wait past 2^31-1 ms', () => {
    expect(MAX_TIMER_MS).toBeLessThanOrEqual(2 ** 31 - 1);
    expect(duration.parse('24d')).toBe(2_073_600_000);
    expect(messages(duration, '99999999999d')).toEqual(['must be at most 24d, got "99999999999d"']);
    expect(messages(duration, '24d1ms')).toEqual(['must be at most 24d, got "24d1ms"']);
    expect(messages(duration, `${'9'.repeat(400)}d`)).toEqual([`must be at most 24d, got "${'9'.repeat(57)}..."`]);
    const span = durationSchema({ max: 365 * 86_400_000 });
    expect(span.parse('365d')).toBe(31_536_000_000);
    expect(messages(span, '366d')).toEqual(['must be at most 365d, got "366d"']);
    expect(messages(durationSchema({ max: 90 * 60_000 }), '2h')).toEqual(['must be at most 90m, got "2h"']);
  });

  it('withDefault fills an absent value with an output-unit default', () => {
    const schema = z.object({ every: withDefault(duration, 30_000) });
    expect(schema.parse({})).toEqual({ every: 30_000 });
    expect(schema.parse({ every: '1m' })).toEqual({ every: 60_000 });
  });
});

describe('byteSize', () => {
  it.each([
    [1024, 1024],
    ['32MiB', 33_554_432],
    ['512KiB', 524_288],
  ])('%j is %d bytes', (value, bytes) => {
    expect(byteSize.parse(value)).toBe(bytes);
  });

  it.each([
    ['32XB', 'invalid size "32XB" (use a number of bytes, or 512KiB, 32MiB, 1GB)'],
    [-1, 'invalid size -1 (use a number of bytes, or 512KiB, 32MiB, 1GB)'],
    [1.5, 'invalid size 1.5 (use a number of bytes, or 512KiB, 32MiB, 1GB)'],
    [{}, 'expected a size, got a map (use a number of bytes, or 512KiB, 32MiB, 1GB)'],
  ])('rejects %j', (value, message) => {
    expect(messages(byteSize, value)).toEqual([message]);
  });
});

describe('hostPort and httpUrl', () => {
  it('keeps a valid HOST:PORT as written', () => {
    expect(hostPort.parse('[::]:9464')).toBe('[::]:9464');
    expect(messages(hostPort, 'localhost')).toEqual([
      'invalid listen address "localhost" (use HOST:PORT, e.g. 127.0.0.1:9464 or :9464)',
    ]);
  });

  it.each([
    ['not a url', 'invalid URL "not a url" (use http://HOST:PORT/PATH)'],
    ['ftp://example.org/', 'unsupported URL scheme "ftp" (use http or https, e.g. http://HOST:PORT/PATH)'],
    ['//user:secret@host', 'invalid URL "//user:secret@host" (use http://HOST:PORT/PATH)'],
    ['http//user:secret@host', 'invalid URL "http//user:secret@host" (use http://HOST:PORT/PATH)'],
  ])('rejects %j', (value, message) => {
    expect(messages(httpUrl, value)).toEqual([message]);
  });

  it('accepts http and https', () => {
    expect(httpUrl.parse('https://example.org/hook?a=1')).toBe('https://example.org/hook?a=1');
    expect(httpUrl.parse('http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080');
  });
});

describe('redactUrlCredentials', () => {
  it.each([
    ['smtp://user:pass@mail.example.org:587', 'smtp://<redacted>@mail.example.org:587'],
    ['smtps://user:p@ss@mail.example.org/', 'smtps://<redacted>@mail.example.org/'],
    ['http://example.org/a@b', 'http://example.org/a@b'],
    ['smtp://mail.example.org', 'smtp://mail.example.org'],
  ])('%s', (url, expected) => {
    expect(redactUrlCredentials(url)).toBe(expected);
  });
});
