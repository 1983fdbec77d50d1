/**
 * The main thread's side of the poll thread: starts it (a worker thread, poll-worker.ts; or,
 * for tests that inject a clock or a failing store, the same service on a message channel in
 * this thread), hands it commands, hears its reports, asks it questions, and knows whether it
 * is alive. Either way every message is structured-cloned and delivered in order: the
 * protocol is the same.
 */
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { join } from 'node:path';
import pino from 'pino';
import type { Agent } from 'undici';
import type { Config } from '../config';
import type { Clock } from '../lib/clock';
import { errorMessage } from '../lib/error-message';
import type { Logger } from '../lib/logger';
import { PacedReports, type Answers, type Command, type Question, type Report } from '../poll/protocol';
import type { StateStore } from '../store/store';
import { PollService } from './poll-service';

/** Where the poll thread runs: a worker thread (the daemon), or this thread (tests that inject parts). */
export type PollHost =
  | { kind: 'worker' }
  | { kind: 'inline'; clock: Clock; random: () => number; openStore: (dir: string) => StateStore; dispatcher: Agent };

export interface PollThreadOptions {
  host: PollHost;
  logger: Logger;
  /** Every report, in order. */
  onReport(report: Report): void;
  /** The poll thread ended without being asked to (a fault of spotwatch). */
  onExit?(error: string): void;
}

/** How long without a word from the poll thread before it counts as stalled (/healthz). */
export const STALLED_AFTER_MS = 15_000;
const PING_MS = 2_000;

const LEVELS: Record<number, 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal'> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };

/** A logger whose lines (pino's JSON) are posted as reports, for the main thread to log. */
export function forwardingLogger(level: string, post: (report: Report) => void): Logger {
  return pino({ level, base: undefined }, { write: (line: string) => post({ t: 'log', line }) });
}

/** A poll thread's log line, logged by the main thread's logger (its redaction applies). */
function relog(logger: Logger, line: string): void {
  try {
    const { level, msg, time: _time, ...fields } = JSON.parse(line) as { level: number; msg?: string; time?: number } & Record<string, unknown>;
    logger[LEVELS[level] ?? 'info'](fields, msg ?? '');
  } catch {
    logger.warn({ line: line.slice(0, 200) }, 'unreadable log line from the poll thread');
  }
}

interface Channel {
  post(command: Command): void;
  close(): Promise<void>;
}

export class PollThread {
  private readonly channel: Channel;
  private readonly asked = new Map<number, (answer: unknown) => void>();
  private nextId = 0;
  private heardAt = Date.now();
  private ended = false;
  private stopping: Promise<void> | undefined;
  private resolveStopped: (() => void) | undefined;
  private readonly ping: NodeJS.Timeout;

  constructor(private readonly options: PollThreadOptions) {
    const onMessage = (report: Report): void => this.heard(report);
    this.channel = options.host.kind === 'worker' ? this.worker(onMessage) : this.inline(options.host, onMessage);
    this.ping = setInterval(() => this.channel.post({ t: 'ping' }), PING_MS);
    this.ping.unref();
  }

  /** The configuration to watch by: the first starts the exchanges; later ones are reloads. */
  configure(config: Config, env: Record<string, string | undefined>): void {
    this.channel.post({ t: 'configure', config, env });
  }

  /** Asks the poll thread; undefined when it has not answered within `timeoutMs` (it is busy with a storm, say). */
  ask<Q extends Question>(question: Q, timeoutMs: number): Promise<Answers[Q['q']] | undefined> {
    if (this.ended) return Promise.resolve(undefined);
    const id = ++this.nextId;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        // A late answer is still taken (and dropped): the poll thread keeps track of what it sent.
        this.asked.set(id, () => undefined);
        resolve(undefined);
      }, timeoutMs);
      this.asked.set(id, (answer) => {
        clearTimeout(timer);
        resolve(answer as Answers[Q['q']]);
      });
      this.channel.post({ t: 'ask', id, question });
    });
  }

  /** The poll thread is running and has said something within STALLED_AFTER_MS (it answers a ping every two seconds). */
  alive(now = Date.now()): boolean {
    return !this.ended && now - this.heardAt < STALLED_AFTER_MS;
  }

  /** Stops polling (abandoning requests in flight): resolves once the poll thread has closed its store. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      clearInterval(this.ping);
      if (!this.ended) {
        const stopped = new Promise<void>((resolve) => (this.resolveStopped = resolve));
        this.channel.post({ t: 'stop' });
        await stopped;
      }
      await this.channel.close();
    })();
    return this.stopping;
  }

  private heard(report: Report): void {
    this.heardAt = Date.now();
    try {
      this.take(report);
    } finally {
      // The next report may come (PacedReports): one at a time, each in a task of its own.
      if (report.t !== 'stopped') this.channel.post({ t: 'ack' });
    }
  }

  private take(report: Report): void {
    switch (report.t) {
      case 'log':
        return relog(this.options.logger, report.line);
      case 'reply': {
        const resolve = this.asked.get(report.id);
        this.asked.delete(report.id);
        return resolve?.(report.answer);
      }
      case 'pong':
        return;
      case 'stopped':
        this.ended = true;
        return this.resolveStopped?.();
      default:
        return this.options.onReport(report);
    }
  }

  private worker(onMessage: (report: Report) => void): Channel {
    if (__filename.endsWith('.ts')) throw new Error('the poll thread runs from the build (dist/); running from the sources, start the daemon with pollHost inline');
    const worker = new Worker(join(__dirname, 'poll-worker.js'), { workerData: { level: this.options.logger.level } });
    worker.on('message', onMessage);
    worker.on('error', (err) => this.options.logger.error({ err }, 'the poll thread failed'));
    worker.on('exit', (code) => {
      const expected = this.stopping !== undefined;
      this.ended = true;
      this.resolveStopped?.();
      if (!expected) {
        const error = `the poll thread ended (exit code ${code})`;
        this.options.logger.error({ code }, 'the poll thread ended; polling has stopped');
        this.options.onExit?.(error);
      }
    });
    return {
      post: (command) => worker.postMessage(command),
      close: async () => {
        await worker.terminate();
      },
    };
  }

  private inline(host: Extract<PollHost, { kind: 'inline' }>, onMessage: (report: Report) => void): Channel {
    const { port1, port2 } = new MessageChannel();
    port1.on('message', onMessage);
    const reports = new PacedReports((report) => port2.postMessage(report));
    const post = (report: Report): void => reports.post(report);
    const service = new PollService({ post, clock: host.clock, random: host.random, openStore: host.openStore, dispatcher: host.dispatcher, logger: forwardingLogger(this.options.logger.level, post) });
    let queue: Promise<void> = Promise.resolve();
    port2.on('message', (command: Command) => {
      if (command.t === 'ack') return reports.ack();
      queue = queue.then(async () => {
        try {
          await service.handle(command);
        } catch (err) {
          this.options.logger.error({ error: errorMessage(err), command: command.t }, 'the poll thread failed to carry out a command');
        }
      });
    });
    return {
      post: (command) => port1.postMessage(command),
      close: async () => {
        await queue;
        closePorts(port1, port2);
      },
    };
  }
}

function closePorts(...ports: MessagePort[]): void {
  for (const p of ports) p.close();
}
