/**
 * The poll thread's entry (a worker_threads Worker, started by poll-thread.ts): the poll
 * service on the worker's port, with the parts it owns made here (its clock, its store
 * connection, its HTTP connection pool for the exchanges, a logger whose lines go to the main
 * thread's logger).
 */
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { Agent } from 'undici';
import { systemClock } from '../lib/clock';
import { PacedReports, type Command, type Report } from '../poll/protocol';
import { StateStore } from '../store/store';
import { PollService } from './poll-service';
import { forwardingLogger } from './poll-thread';

/** The poll thread's nice value (0 is the main thread's; 19 the lowest). */
const POLL_THREAD_NICE = 19;

const port = parentPort;
if (port === null) throw new Error('poll-worker.ts runs as a worker thread (see poll-thread.ts)');

// The poll thread yields the processor to the main thread: a storm's step (half a second of
// work) must not delay a health check or a delivery. On Linux a priority set with no process
// id is this thread's alone; elsewhere it may not be allowed, and nothing depends on it.
try {
  setPriority(POLL_THREAD_NICE);
} catch {
  // not allowed here: the poll thread keeps the process's priority
}

const reports = new PacedReports((report) => port.postMessage(report));
const post = (report: Report): void => reports.post(report);
const dispatcher = new Agent({ connections: 8, keepAliveTimeout: 30_000 });
const service = new PollService({
  post,
  clock: systemClock,
  random: Math.random,
  openStore: (dir) => StateStore.open(dir),
  dispatcher,
  logger: forwardingLogger((workerData as { level: string }).level, post),
});

let queue: Promise<void> = Promise.resolve();
port.on('message', (command: Command) => {
  // Taken at once, not behind a command that runs (a start waits for its exchanges).
  if (command.t === 'ack') return reports.ack();
  // Commands run in order (a reload waits for the start before it).
  queue = queue.then(async () => {
    try {
      await service.handle(command);
    } catch (err) {
      post({ t: 'log', line: JSON.stringify({ level: 50, msg: 'the poll thread failed to carry out a command', command: command.t, err: err instanceof Error ? err.stack : String(err) }) });
    }
    if (command.t === 'stop') {
      await reports.drained();
      await dispatcher.close();
      port.close();
    }
  });
});
