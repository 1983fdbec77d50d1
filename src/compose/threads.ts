/**
 * The daemon's engine thread, beside the main thread (which serves HTTP: health checks,
 * scrapes, the status page and the API): the poll path and delivery (engine-service.ts). It
 * runs in a worker (the daemon), or, for tests that run from the sources or inject the clock or
 * the store, in the main thread on the same messages.
 */
import { join } from 'node:path';
import type { Logger } from '../lib/logger';
import type { Instant } from '../lib/time-base';
import { serveEngine, type EngineCommand, type EngineReport } from './engine-service';
import { ServiceThread, type ServiceThreadOptions, type ThreadParts } from './service-thread';

/**
 * Where the engine runs: a worker thread (the daemon), anchoring its clock where the main
 * thread's is (`anchor`, time-base.ts anchoredClock: one time line for both threads), or this
 * thread, with parts given (tests).
 */
export type ThreadsHost = { kind: 'worker'; anchor: Instant } | { kind: 'inline'; parts: ThreadParts };

export type EngineThread = ServiceThread<EngineCommand, EngineReport>;

export function startEngine(host: ThreadsHost, logger: Logger, on: Pick<ServiceThreadOptions<EngineReport>, 'onReport' | 'onAsk' | 'onExit'>): EngineThread {
  const place: ServiceThreadOptions<never>['host'] =
    host.kind === 'worker' ? { kind: 'worker', file: join(__dirname, 'engine-worker.js'), workerData: { anchor: host.anchor } } : { kind: 'inline', start: (port, level) => serveEngine(port, level, host.parts) };
  return new ServiceThread({ name: 'engine', host: place, logger, ...on });
}
