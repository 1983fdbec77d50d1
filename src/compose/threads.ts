/**
 * The daemon's service threads, beside the main thread (which serves HTTP: health checks,
 * scrapes, the status page and the API): the poll thread (fetch, decode, step, the state's
 * writes) and the delivery thread (groups, the outbox, the receivers, the chat bots). What to
 * tell goes from the poll thread to the delivery thread on a channel of their own, never
 * through the main thread. Each runs in a worker (the daemon), or, for tests that run from the
 * sources or inject the clock or the store, in the main thread on the same messages.
 */
import { join } from 'node:path';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import type { Logger } from '../lib/logger';
import type { Instant } from '../lib/time-base';
import type { Command, Report } from '../poll/protocol';
import { serveDelivery, type DeliveryCommand, type DeliveryReport } from './delivery-service';
import { servePoll } from './poll-service';
import { ServiceThread, type ServiceThreadOptions, type ThreadParts } from './service-thread';

/**
 * Where the service threads run: worker threads (the daemon), anchoring their clocks where the
 * main thread's is (`anchor`, time-base.ts anchoredClock: one time line for every thread), or
 * this thread, with parts given (tests).
 */
export type ThreadsHost = { kind: 'worker'; anchor: Instant } | { kind: 'inline'; parts: ThreadParts };

type Handlers<R> = Pick<ServiceThreadOptions<R>, 'onReport' | 'onAsk' | 'onExit'>;

export class Threads {
  readonly poll: ServiceThread<Command, Report>;
  readonly delivery: ServiceThread<DeliveryCommand, DeliveryReport>;

  constructor(host: ThreadsHost, logger: Logger, on: { poll: Handlers<Report>; delivery: Handlers<DeliveryReport> }) {
    // The poll thread's channel to the delivery thread: one end each.
    const { port1: toDelivery, port2: fromPoll } = new MessageChannel();
    const place = (file: string, key: string, port: MessagePort, serve: typeof servePoll): ServiceThreadOptions<never>['host'] =>
      host.kind === 'worker' ? { kind: 'worker', file: join(__dirname, file), workerData: { [key]: port, anchor: host.anchor }, transfer: [port] } : { kind: 'inline', start: (own, level) => serve(own, level, port, host.parts) };
    this.poll = new ServiceThread({ name: 'poll', host: place('poll-worker.js', 'delivery', toDelivery, servePoll), logger, ...on.poll });
    this.delivery = new ServiceThread({ name: 'delivery', host: place('delivery-worker.js', 'poll', fromPoll, serveDelivery), logger, ...on.delivery });
  }

  /** Both run and answer. */
  alive(): boolean {
    return this.poll.alive() && this.delivery.alive();
  }

  /** Polling stops first (what it told is taken), then delivery (what is unsent stays in the outbox). */
  async stop(): Promise<void> {
    await this.poll.stop();
    await this.delivery.stop();
  }
}
