import { fingerprint } from '../../src/alerts/alert';
import { alertMark, CUT, fairShares, fit, headline, readableTime } from '../../src/notify/kit/chat-text';
import { isChangeEvent } from '../../src/notify/kit/event-alert';
import { toNotified } from '../../src/notify/pipeline/build-delivery';
import { closed, delivery, descSet, EXTERNAL_URL, reopened } from './chat-fixtures';

describe('what the chat receivers say', () => {
  it.each([
    ['one firing', [closed()], '[FIRING:1] WithdrawDisabled main'],
    ['two firing and one resolved', [closed(), closed('x', { network: 'BSC' }), reopened(closed('y', { network: 'ERC20' }))], '[FIRING:2] WithdrawDisabled main'],
    ['all resolved', [reopened(closed())], '[RESOLVED] WithdrawDisabled main'],
  ])('heads a group with %s as Alertmanager does', (_what, alerts, expected) => {
    expect(headline(delivery(alerts).notification)).toBe(expected);
  });

  it.each([
    ['critical', '🔴'], ['error', '🟠'], ['warning', '🟡'], ['info', '🔵'], ['page', '⚪'],
  ])('marks a firing %s alert %s', (severity, mark) => {
    expect(alertMark(toNotified(closed('m', { severity }), EXTERNAL_URL))).toBe(mark);
  });

  it('writes times as people read them', () => {
    expect(readableTime('2026-01-02T03:04:05.678Z')).toBe('2026-01-02 03:04:05 UTC');
    expect(readableTime('not a time')).toBe('not a time');
  });

  it.each<[string, string, number, string]>([
    ['short enough', 'abc', 3, 'abc'],
    ['cut with a mark', 'abcdef', 4, `abc${CUT}`],
    ['never inside a surrogate pair', 'ab😀cd', 4, `ab${CUT}`],
    ['to nothing below the mark', 'abc', 0, ''],
  ])('fits text: %s', (_what, text, max, expected) => {
    expect(fit(text, max)).toBe(expected);
  });

  it.each<[string, number[], number, number[]]>([
    ['all fit', [10, 20, 30], 100, [10, 20, 30]],
    ['equal when all are long', [900, 900, 900], 600, [200, 200, 200]],
    ['the short ones whole, the long ones share the rest', [50, 5000, 100, 5000], 1000, [50, 425, 100, 425]],
  ])('shares a budget: %s', (_what, sizes, total, expected) => {
    expect(fairShares(sizes, total)).toEqual(expected);
  });

  it('tells a change event from a condition by its fingerprint', () => {
    expect(isChangeEvent(toNotified(descSet('x'), EXTERNAL_URL))).toBe(true);
    expect(isChangeEvent(toNotified(closed(), EXTERNAL_URL))).toBe(false);
    expect(isChangeEvent(toNotified(reopened(closed()), EXTERNAL_URL))).toBe(false);
    // A condition's fingerprint is that of its labels alone.
    expect(closed().fingerprint).toBe(fingerprint(closed().labels));
  });
});
