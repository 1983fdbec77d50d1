/**
 * One end of the channel between two threads of the daemon (the main thread, the poll thread,
 * the delivery thread). Messages are structured-cloned and kept in order, and go out one at a
 * time: each once the other end has taken the one before (its `ack`). A port hands every
 * message waiting on it to the receiving thread in one go: a storm's step posted at once (its
 * alerts, changes and what to tell, 40 messages) held the main thread 110-230 ms as it read
 * them all; paced, the receiver reads one, answers a health check, reads the next. A question
 * is asked and answered by id, either way.
 */
import type { MessagePort } from 'node:worker_threads';
import { systemScheduler } from '../lib/scheduler';

/** What a channel needs of a port (a MessagePort, a Worker, a worker's parentPort). */
export interface Port {
  postMessage(value: unknown): void;
  on(event: 'message', listener: (value: unknown) => void): unknown;
}

/** The channel's own messages, beside those of the two ends. */
type Control = { t: 'ack' } | { t: 'ask'; id: number; question: unknown } | { t: 'reply'; id: number; answer: unknown };

export interface Listener<In> {
  /** A message of the other end (the next comes once this returns). */
  message(message: In): void;
  /** A question of the other end; what it resolves to is the answer. */
  ask?(question: unknown): unknown;
}

export class Channel<Out extends { t: string }, In extends { t: string }> {
  private readonly waiting: unknown[] = [];
  private inFlight = false;
  private idle: (() => void)[] = [];
  private readonly asked = new Map<number, (answer: unknown) => void>();
  private nextId = 0;
  /** When the other end last said anything (ms on this thread's monotonic clock, performance.now: a step of the wall clock is no silence). */
  heardAt = performance.now();

  constructor(
    private readonly port: Port,
    private readonly listener: Listener<In>,
  ) {
    port.on('message', (m) => this.receive(m as In | Control));
  }

  /** Sends a message, after those before it, once the other end has taken them. */
  post(message: Out): void {
    this.send(message);
  }

  /** Asks the other end; undefined when it has not answered within `timeoutMs` (a late answer is dropped). */
  ask(question: unknown, timeoutMs: number): Promise<unknown> {
    const id = ++this.nextId;
    return new Promise((resolve) => {
      const cancel = systemScheduler.after(timeoutMs, () => {
        // A late answer finds no one waiting, and is dropped.
        this.asked.delete(id);
        resolve(undefined);
      });
      this.asked.set(id, (answer) => {
        cancel();
        resolve(answer);
      });
      this.send({ t: 'ask', id, question } satisfies Control);
    });
  }

  /** Resolves once every message posted so far has been taken by the other end. */
  drained(): Promise<void> {
    if (!this.inFlight && this.waiting.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private send(message: unknown): void {
    this.waiting.push(message);
    this.next();
  }

  private next(): void {
    if (this.inFlight) return;
    const message = this.waiting.shift();
    if (message === undefined) {
      for (const resolve of this.idle.splice(0)) resolve();
      return;
    }
    this.inFlight = true;
    this.port.postMessage(message);
  }

  private receive(m: In | Control): void {
    this.heardAt = performance.now();
    if (m.t === 'ack') {
      this.inFlight = false;
      this.next();
      return;
    }
    try {
      if (m.t === 'reply') {
        const { id, answer } = m as Extract<Control, { t: 'reply' }>;
        const resolve = this.asked.get(id);
        this.asked.delete(id);
        resolve?.(answer);
      } else if (m.t === 'ask') {
        const { id, question } = m as Extract<Control, { t: 'ask' }>;
        void Promise.resolve(this.listener.ask?.(question)).then(
          (answer) => this.send({ t: 'reply', id, answer } satisfies Control),
          () => this.send({ t: 'reply', id, answer: undefined } satisfies Control),
        );
      } else this.listener.message(m as In);
    } finally {
      // Not paced (both ends waiting for an ack behind their own messages would wait for ever).
      this.port.postMessage({ t: 'ack' } satisfies Control);
    }
  }
}

/** Closes ports made for an in-thread channel (see ServiceThread). */
export function closePorts(...ports: MessagePort[]): void {
  for (const p of ports) p.close();
}
