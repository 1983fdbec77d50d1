/**
 * The poll thread's entry (a worker_threads Worker, started by compose/threads.ts): the poll
 * service with the parts it owns made here (its clock, its store connection, its HTTP
 * connection pool for the exchanges).
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { Agent } from 'undici';
import { systemClock } from '../lib/clock';
import { anchoredClock, type Instant } from '../lib/time-base';
import { StateStore } from '../store/store';
import { servePoll } from './poll-service';
import { lowerPriority } from './service-thread';

const port = parentPort;
if (port === null) throw new Error('poll-worker.ts runs as a worker thread (see compose/threads.ts)');
const { level, delivery, anchor } = workerData as { level: string; delivery: MessagePort; anchor: Instant };

// The lowest: a storm's step (half a second of work) never delays a health check or a delivery.
lowerPriority(19);
const dispatcher = new Agent({ connections: 8, keepAliveTimeout: 30_000 });
servePoll(port, level, delivery, { clock: anchoredClock(systemClock, anchor), random: Math.random, openStore: (dir) => StateStore.open(dir), dispatcher }, () => dispatcher.close());
