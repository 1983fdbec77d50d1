// A preload that records every callback of the event loop that ran long: its kind (async_hooks
// type), when, its wall time and the process's CPU time meanwhile. Written as JSON at exit to
// $LONGTASKS_DIR (default: the temporary directory), long-<pid>-<thread id>.json (the engine has its own). For finding what holds
// the loop in a storm:
//   STORM_FLAGS="--import ./bench/longtasks.mjs --cpu-prof --cpu-prof-dir=/tmp/prof" node bench/storm.mjs
// then read each long callback's samples out of the profile by its start and end (hrtime, µs,
// the profile's own clock).
import { createHook } from 'node:async_hooks';
import { threadId } from 'node:worker_threads';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const MIN_MS = Number(process.env.LONGTASKS_MIN_MS ?? 12);
const types = new Map();
const long = [];
const stack = [];
const t0 = Date.now();
createHook({
  init(id, type) {
    types.set(id, type);
  },
  before(id) {
    stack.push(stack.length === 0 ? [id, process.hrtime.bigint(), process.cpuUsage()] : null);
  },
  after(id) {
    const top = stack.pop();
    if (!top) return;
    const end = process.hrtime.bigint();
    const ms = Number(end - top[1]) / 1e6;
    const c = process.cpuUsage(top[2]);
    const cpu = (c.user + c.system) / 1000;
    if (ms >= MIN_MS || cpu >= MIN_MS) long.push({ type: types.get(id), at: Date.now() - t0, ms: +ms.toFixed(1), cpu: +cpu.toFixed(1), startUs: Number(top[1] / 1000n), endUs: Number(end / 1000n) });
  },
  destroy(id) {
    types.delete(id);
  },
}).enable();
process.on('exit', () => writeFileSync(join(process.env.LONGTASKS_DIR ?? tmpdir(), `long-${process.pid}-${threadId}.json`), JSON.stringify(long)));
