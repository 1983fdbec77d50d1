import { Channel, type Port } from '../../src/runtime/thread';
import { ServiceThread, serve, type Service } from '../../src/runtime/thread';
import { capturedLogger } from '../support/log-capture';

/** A port whose sends are recorded and whose receipts the test makes. */
function fakePort() {
  const sent: unknown[] = [];
  let listener: (value: unknown) => void = () => undefined;
  const port: Port = {
    postMessage: (value) => sent.push(value),
    on: (_event, l) => (listener = l),
  };
  return { port, sent, receive: (value: unknown) => listener(value) };
}

async function until(check: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('a channel between two threads', () => {
  it('sends one message at a time: the next once the other end has taken the one before', () => {
    const { port, sent, receive } = fakePort();
    const channel = new Channel<{ t: 'm'; n: number }, { t: 'x' }>(port, { message: () => undefined });
    channel.post({ t: 'm', n: 1 });
    channel.post({ t: 'm', n: 2 });
    channel.post({ t: 'm', n: 3 });
    expect(sent).toEqual([{ t: 'm', n: 1 }]);
    receive({ t: 'ack' });
    expect(sent).toEqual([{ t: 'm', n: 1 }, { t: 'm', n: 2 }]);
    receive({ t: 'ack' });
    receive({ t: 'ack' });
    expect(sent).toEqual([{ t: 'm', n: 1 }, { t: 'm', n: 2 }, { t: 'm', n: 3 }]);
  });

  it('acknowledges every message it takes at once, even while its own wait for an ack', () => {
    const { port, sent, receive } = fakePort();
    const heard: unknown[] = [];
    const channel = new Channel<{ t: 'm' }, { t: 'x'; n: number }>(port, { message: (m) => heard.push(m) });
    channel.post({ t: 'm' });
    receive({ t: 'x', n: 1 });
    receive({ t: 'x', n: 2 });
    expect(heard).toEqual([{ t: 'x', n: 1 }, { t: 'x', n: 2 }]);
    expect(sent).toEqual([{ t: 'm' }, { t: 'ack' }, { t: 'ack' }]);
  });

  it('answers a question by its id, and an unanswered one is undefined after its wait (a late answer is dropped)', async () => {
    const { port, sent, receive } = fakePort();
    const channel = new Channel<{ t: 'm' }, { t: 'x' }>(port, { message: () => undefined, ask: (q) => ({ echo: q }) });
    const asked = channel.ask({ q: 'parts' }, 10_000);
    expect(sent).toEqual([{ t: 'ask', id: 1, question: { q: 'parts' } }]);
    receive({ t: 'reply', id: 1, answer: { parts: [] } });
    await expect(asked).resolves.toEqual({ parts: [] });
    receive({ t: 'ack' });
    const late = channel.ask({ q: 'slow' }, 20);
    await expect(late).resolves.toBeUndefined();
    receive({ t: 'reply', id: 2, answer: 'late' });
    expect(sent).toEqual([{ t: 'ask', id: 1, question: { q: 'parts' } }, { t: 'ack' }, { t: 'ask', id: 2, question: { q: 'slow' } }, { t: 'ack' }]);
    // A question of the other end: its reply waits behind the ask not yet taken.
    receive({ t: 'ask', id: 9, question: 'hi' });
    await new Promise((r) => setImmediate(r));
    expect(sent.slice(4)).toEqual([{ t: 'ack' }]);
    receive({ t: 'ack' });
    expect(sent.slice(5)).toEqual([{ t: 'reply', id: 9, answer: { echo: 'hi' } }]);
  });
});

describe('a service thread (run in this thread, on a message channel)', () => {
  it('runs commands in order, answers questions, forwards its log lines, and stops after what it was doing', async () => {
    const { lines, logger } = capturedLogger('info');
    const done: string[] = [];
    const reports: unknown[] = [];
    const thread = new ServiceThread<{ t: 'work'; n: number }, { t: 'did'; n: number }>({
      name: 'test',
      logger,
      onReport: (r) => reports.push(r),
      onAsk: (q) => `main answers ${String(q)}`,
      host: {
        kind: 'inline',
        start: (port, level) =>
          serve<{ t: 'work'; n: number }, { t: 'did'; n: number }>(port, level, ({ post, ask, logger: log }): Service<{ t: 'work'; n: number }> => ({
            async handle(c) {
              // A slow first command: the second waits for it.
              if (c.n === 1) await new Promise((r) => setTimeout(r, 30));
              done.push(`work ${c.n}`);
              if (c.n === 2) log.warn({ n: c.n, answer: await ask('q', 1_000) }, 'from the thread');
              post({ t: 'did', n: c.n });
            },
            answer: (q) => `thread answers ${String(q)}`,
            async stop() {
              done.push('stopped');
            },
          }), () => {
            done.push('released');
          }),
      },
    });
    thread.post({ t: 'work', n: 1 });
    thread.post({ t: 'work', n: 2 });
    await expect(thread.ask('x', 1_000)).resolves.toBe('thread answers x');
    expect(thread.alive()).toBe(true);
    // The wall clock stepped an hour forward: no silence of an hour (it counted as stalled, /healthz 503).
    const now = Date.now();
    const stepped = jest.spyOn(Date, 'now').mockReturnValue(now + 3_600_000);
    expect(thread.alive()).toBe(true);
    stepped.mockRestore();
    await until(() => reports.length === 2);
    expect(reports).toEqual([{ t: 'did', n: 1 }, { t: 'did', n: 2 }]);
    expect(lines.map((l) => [l.level, l.msg, l.n, l.answer])).toEqual([[40, 'from the thread', 2, 'main answers q']]);
    thread.post({ t: 'work', n: 3 });
    await thread.stop();
    expect(done).toEqual(['work 1', 'work 2', 'work 3', 'stopped', 'released']);
    expect(thread.alive()).toBe(false);
    await expect(thread.ask('y', 1_000)).resolves.toBeUndefined();
  });
});
