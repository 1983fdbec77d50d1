// What the in-process benches share: a median, and CPU time (ms) of this process since a start.

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** CPU time (ms, this process, every thread) since `start` (process.cpuUsage()): on a shared machine, less noisy than the wall clock. */
export function cpuMs(start) {
  const u = process.cpuUsage(start);
  return (u.user + u.system) / 1000;
}
