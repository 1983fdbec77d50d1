/**
 * A signal that aborts when any of the given signals does (with that signal's reason), and
 * `release`, which unlinks it once its operation is over. AbortSignal.any() would do, but Node
 * keeps a reference from a long-lived signal to every signal ever derived from it
 * (nodejs/node#55351): in a loop that polls forever against one `stopping` signal, a slow leak.
 */
export interface LinkedSignal {
  signal: AbortSignal;
  release(): void;
}

export function anySignal(signals: readonly AbortSignal[]): LinkedSignal {
  const controller = new AbortController();
  const unlink: (() => void)[] = [];
  const release = (): void => {
    for (const u of unlink.splice(0)) u();
  };
  for (const s of signals) {
    if (s.aborted) {
      controller.abort(s.reason);
      break;
    }
    const onAbort = (): void => {
      controller.abort(s.reason);
      release();
    };
    s.addEventListener('abort', onAbort, { once: true });
    unlink.push(() => s.removeEventListener('abort', onAbort));
  }
  if (controller.signal.aborted) release();
  return { signal: controller.signal, release };
}
