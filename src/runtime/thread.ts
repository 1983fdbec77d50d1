/**
 * A thread of the daemon, both sides: the main thread's handle (start, commands, questions,
 * liveness, stop: ServiceThread) and `serve`, which runs a service on the thread's end, over
 * one channel (Channel). Messages are structured-cloned and kept in order, and go out one at a
 * time: each once the other end has taken the one before (its `ack`): a port hands every
 * message waiting on it to the receiving thread in one go, and a storm's step posted at once
 * held the main thread 110-230 ms as it read them all; paced, the receiver reads one, answers a
 * health check, reads the next. A question is asked and answered by id, either way. Tests that
 * inject a clock or a store run the same service in the main thread, on a message channel: the
 * same messages, cloned the same way.
 */
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import pino from 'pino';
import type { Agent } from 'undici';
import type { Clock } from '../lib/clock';
import { errorMessage } from '../lib/error-message';
import type { Logger } from '../lib/logger';
import { systemScheduler, type Scheduler } from '../lib/scheduler';
import type { StateStore } from '../store/store';

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

  private send(message: unknown): void {
    this.waiting.push(message);
    this.next();
  }

  private next(): void {
    if (this.inFlight) return;
    const message = this.waiting.shift();
    if (message === undefined) return;
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
function closePorts(...ports: MessagePort[]): void {
  for (const p of ports) p.close();
}

/** What every service thread answers to and says, besides its own messages. */
export type BaseCommand = { t: 'ping' } | { t: 'stop' };
export type BaseReport = { t: 'pong' } | { t: 'log'; line: string } | { t: 'stopped' };

/** A service: its commands (run in order) and questions. */
export interface Service<C> {
  handle(command: C): Promise<void> | void;
  answer?(question: unknown): unknown;
  /** Stops: resolves once everything it holds is closed. */
  stop(): Promise<void>;
}

/** What a service has of its thread's channel to the main thread. */
export interface ServiceIO<R> {
  /** A report, after those before it. */
  post(report: R): void;
  /** Asks the main thread; undefined when it has not answered within `timeoutMs`. */
  ask(question: unknown, timeoutMs: number): Promise<unknown>;
  /** Its lines are logged by the main thread's logger. */
  logger: Logger;
}

/** The parts a service thread makes for itself in a worker (or is given, in the main thread, by tests). */
export interface ThreadParts {
  clock: Clock;
  random: () => number;
  /** Opens the state store (the engine's one connection, which writes). */
  openStore(dir: string): StateStore;
  /** The thread's HTTP connection pool (the exchanges and the receivers). */
  dispatcher: Agent;
  /** How often the store's file is looked at (store-file.ts; STORE_CHECK_MS unless given). */
  storeCheckMs?: number | undefined;
  /** What runs the thread's repeating work (the system's timers unless given). */
  scheduler?: Scheduler | undefined;
}

/** How long without a word from a thread before it counts as stalled (/healthz). */
export const STALLED_AFTER_MS = 15_000;
const PING_MS = 2_000;

const LEVELS: Record<number, 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal'> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };

/** A logger whose lines (pino's JSON) go to the main thread's logger (whose redaction applies). */
export function forwardingLogger(level: string, post: (report: { t: 'log'; line: string }) => void): Logger {
  return pino({ level, base: undefined }, { write: (line: string) => post({ t: 'log', line }) });
}

/** A thread's log line, logged by the main thread's logger. */
function relog(logger: Logger, line: string): void {
  try {
    const { level, msg, time: _time, ...fields } = JSON.parse(line) as { level: number; msg?: string; time?: number } & Record<string, unknown>;
    logger[LEVELS[level] ?? 'info'](fields, msg ?? '');
  } catch {
    logger.warn({ line: line.slice(0, 200) }, 'unreadable log line from a thread');
  }
}

/**
 * Runs `make`'s service on `port` (the thread's end): commands in order, questions answered,
 * a ping answered, logs forwarded; on `stop`, the service stops, `done` releases what the
 * thread holds besides, and the main thread hears that it stopped (and may end the thread).
 */
export function serve<C extends { t: string }, R extends { t: string }>(port: Port, level: string, make: (io: ServiceIO<R>) => Service<C>, done: () => Promise<void> | void = () => undefined): void {
  let queue: Promise<void> = Promise.resolve();
  const channel: Channel<R | BaseReport, C | BaseCommand> = new Channel(port, {
    message: (command) => {
      if (command.t === 'ping') return channel.post({ t: 'pong' });
      queue = queue.then(async () => {
        const s = service;
        try {
          if (command.t === 'stop') {
            await s.stop();
            await done();
            channel.post({ t: 'stopped' });
          } else await s.handle(command as C);
        } catch (err) {
          channel.post({ t: 'log', line: JSON.stringify({ level: 50, msg: 'a thread failed to carry out a command', command: command.t, error: err instanceof Error ? err.stack : String(err) }) });
        }
      });
    },
    ask: (question) => service.answer?.(question),
  });
  const post = (report: R | BaseReport): void => channel.post(report);
  // Made once its channel is: nothing arrives on a port before this task ends.
  const service = make({ post, ask: (question, timeoutMs) => channel.ask(question, timeoutMs), logger: forwardingLogger(level, post) });
}

export interface ServiceThreadOptions<R> {
  /** Its name in the log ('engine'). */
  name: string;
  /** A worker thread running `file` (the build's), or the service made here, on a channel in this thread. */
  host: { kind: 'worker'; file: string; workerData?: Record<string, unknown> } | { kind: 'inline'; start(port: MessagePort, level: string): void };
  logger: Logger;
  /** Every report but the base ones, in order. */
  onReport(report: R): void;
  /** The thread's questions to the main thread. */
  onAsk?(question: unknown): unknown;
  /** The thread ended without being asked to (a fault of spotwatch). */
  onExit?(error: string): void;
  scheduler?: Scheduler;
}

/** The main thread's handle on a service thread. */
export class ServiceThread<C extends { t: string }, R extends { t: string }> {
  private readonly channel: Channel<C | BaseCommand, R | BaseReport>;
  private readonly close: () => Promise<void>;
  private ended = false;
  private stopping: Promise<void> | undefined;
  private resolveStopped: (() => void) | undefined;
  private readonly stopPings: () => void;

  constructor(private readonly options: ServiceThreadOptions<R>) {
    const listener = {
      message: (report: R | BaseReport): void => this.heard(report),
      ask: (question: unknown): unknown => options.onAsk?.(question),
    };
    const level = options.logger.level;
    const host = options.host;
    if (host.kind === 'worker') {
      const worker = new Worker(host.file, { workerData: { level, ...host.workerData } });
      this.channel = new Channel(worker, listener);
      worker.on('error', (err) => options.logger.error({ err, thread: options.name }, 'a thread failed'));
      worker.on('exit', (code) => {
        const expected = this.stopping !== undefined;
        this.ended = true;
        this.resolveStopped?.();
        if (!expected) {
          options.logger.error({ code, thread: options.name }, 'a thread ended unasked; what it did has stopped');
          options.onExit?.(`the ${options.name} thread ended (exit code ${code})`);
        }
      });
      this.close = async () => {
        await worker.terminate();
      };
    } else {
      const { port1, port2 } = new MessageChannel();
      this.channel = new Channel(port1, listener);
      host.start(port2, level);
      this.close = async () => closePorts(port1, port2);
    }
    this.stopPings = (options.scheduler ?? systemScheduler).every(PING_MS, () => this.channel.post({ t: 'ping' }));
  }

  post(command: C): void {
    this.channel.post(command);
  }

  /** Asks the thread; undefined when it has not answered within `timeoutMs` (it is busy with a storm, say). */
  ask(question: unknown, timeoutMs: number): Promise<unknown> {
    if (this.ended) return Promise.resolve(undefined);
    return this.channel.ask(question, timeoutMs);
  }

  /** The thread runs and has said something within STALLED_AFTER_MS (it answers a ping every two seconds). */
  alive(now = performance.now()): boolean {
    return !this.ended && now - this.channel.heardAt < STALLED_AFTER_MS;
  }

  /** Stops the thread: resolves once its service has stopped (its store closed). */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      this.stopPings();
      if (!this.ended) {
        const stopped = new Promise<void>((resolve) => (this.resolveStopped = resolve));
        this.channel.post({ t: 'stop' });
        await stopped;
      }
      await this.close();
    })();
    return this.stopping;
  }

  private heard(report: R | BaseReport): void {
    switch (report.t) {
      case 'log':
        return relog(this.options.logger, (report as { line: string }).line);
      case 'pong':
        return;
      case 'stopped':
        this.ended = true;
        return this.resolveStopped?.();
      default:
        try {
          this.options.onReport(report as R);
        } catch (err) {
          this.options.logger.error({ error: errorMessage(err), thread: this.options.name }, 'a report of a thread could not be taken');
        }
    }
  }
}
