/**
 * The delivery thread's entry (a worker_threads Worker, started by compose/threads.ts): the
 * delivery service with the parts it owns made here (its clock, its store connection, its HTTP
 * connection pool for the receivers).
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { Agent } from 'undici';
import { systemClock } from '../lib/clock';
import { anchoredClock, type Instant } from '../lib/time-base';
import { StateStore } from '../store/store';
import { serveDelivery } from './delivery-service';
import { lowerPriority } from './service-thread';

const port = parentPort;
if (port === null) throw new Error('delivery-worker.ts runs as a worker thread (see compose/threads.ts)');
const { level, poll, anchor } = workerData as { level: string; poll: MessagePort; anchor: Instant };

// Below the main thread (a storm's notification, 4 MB to serialize and compress, never delays
// a health check), above the poll thread (a notification is not held up by the next poll).
lowerPriority(10);
const dispatcher = new Agent({ connections: 8, keepAliveTimeout: 30_000 });
serveDelivery(port, level, poll, { clock: anchoredClock(systemClock, anchor), random: Math.random, openStore: (dir) => StateStore.open(dir), dispatcher }, () => dispatcher.close());
