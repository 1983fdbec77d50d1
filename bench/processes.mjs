// What the process benches share: the built CLI as a child process, waiting for a condition
// with a deadline, quantiles.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

export const CLI = join(process.cwd(), 'dist', 'cli.js');

/** Starts `node [flags] dist/cli.js ...args`; its output is collected, `exited` is its exit code. */
export function start(args, nodeFlags = []) {
  const child = spawn(process.execPath, [...nodeFlags, CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise((r) => child.on('exit', (code) => r(code)));
  return { child, output: () => out, exited };
}

/** Resolves with `check()`'s first truthy value; throws after `ms`. */
export async function waitFor(check, what, ms = 60_000, everyMs = 50) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check().catch(() => undefined);
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
}
