import { getEventListeners } from 'node:events';
import { anySignal } from '../../src/lib/abort';

describe('anySignal', () => {
  it('aborts with the reason of the first signal that aborts', () => {
    const a = new AbortController();
    const b = new AbortController();
    const linked = anySignal([a.signal, b.signal]);
    expect(linked.signal.aborted).toBe(false);
    b.abort('b first');
    a.abort('a later');
    expect(linked.signal.aborted).toBe(true);
    expect(linked.signal.reason).toBe('b first');
  });

  it('is aborted at once when a signal already is', () => {
    const a = new AbortController();
    a.abort('gone');
    const linked = anySignal([new AbortController().signal, a.signal]);
    expect(linked.signal.reason).toBe('gone');
  });

  it('leaves nothing on a long-lived signal once released', () => {
    const stopping = new AbortController();
    for (let i = 0; i < 10_000; i++) {
      const linked = anySignal([stopping.signal, new AbortController().signal]);
      linked.release();
    }
    expect(getEventListeners(stopping.signal, 'abort')).toHaveLength(0);
    // Released: the long-lived signal aborting no longer reaches it.
    const linked = anySignal([stopping.signal]);
    linked.release();
    stopping.abort('stop');
    expect(linked.signal.aborted).toBe(false);
  });

  it('unlinks itself from the others when one aborts', () => {
    const stopping = new AbortController();
    const wake = new AbortController();
    const linked = anySignal([stopping.signal, wake.signal]);
    wake.abort();
    expect(linked.signal.aborted).toBe(true);
    expect(getEventListeners(stopping.signal, 'abort')).toHaveLength(0);
  });
});
