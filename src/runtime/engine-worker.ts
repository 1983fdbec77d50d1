/**
 * The engine thread's entry (a worker_threads Worker, started by runtime/engine.ts): the
 * engine with the parts it owns made here (its clock, anchored where the main thread's is; its
 * store connection; its HTTP connection pool, for the exchanges and the receivers).
 */
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { Agent } from 'undici';
import { systemClock } from '../lib/clock';
import { anchoredClock, type Instant } from '../lib/time-base';
import { StateStore } from '../store/store';
import { serveEngine } from './engine';

const port = parentPort;
if (port === null) throw new Error('engine-worker.ts runs as a worker thread (see runtime/engine.ts)');
const { level, anchor, storeCheckMs } = workerData as { level: string; anchor: Instant; storeCheckMs?: number };

// Below the main thread: on two cores shared with the exchange and the scrapers, a storm's step
// at the same priority delayed a health check past 50 ms (56 ms, 1 of 4 storm runs); at nice 10
// the main thread is scheduled first. On Linux a priority set with no process id is the calling
// thread's alone; where it is not allowed, nothing depends on it.
try {
  setPriority(10);
} catch {
  // not allowed here: the engine keeps the process's priority
}
const dispatcher = new Agent({ connections: 8, keepAliveTimeout: 30_000 });
serveEngine(port, level, { clock: anchoredClock(systemClock, anchor), random: Math.random, openStore: (dir) => StateStore.open(dir), dispatcher, storeCheckMs }, () => dispatcher.close());
