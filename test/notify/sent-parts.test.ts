import { SentParts } from '../../src/notify/kit/sent-parts';

describe('SentParts', () => {
  it('resumes a notification after its accepted parts, and from the start once done', () => {
    const sent = new SentParts();
    expect(sent.next('a')).toBe(0);
    sent.accepted('a', 2);
    expect(sent.next('a')).toBe(2);
    sent.done('a');
    expect(sent.next('a')).toBe(0);
  });

  it('forgets the notification least recently advanced beyond its bound', () => {
    const sent = new SentParts(2);
    sent.accepted('a', 1);
    sent.accepted('b', 1);
    sent.accepted('a', 2);
    sent.accepted('c', 1);
    expect([sent.next('a'), sent.next('b'), sent.next('c')]).toEqual([2, 0, 1]);
  });
});
