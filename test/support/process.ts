import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { waitFor } from './wait';

export const ROOT = join(__dirname, '..', '..');
export const CLI = join(ROOT, 'dist', 'cli.js');

/** A child process whose output is collected, and which a test always cleans up. */
export class Child {
  stdout = '';
  stderr = '';
  exitCode: number | null = null;
  signal: NodeJS.Signals | null = null;
  readonly proc: ChildProcess;
  private readonly exited: Promise<void>;

  constructor(command: string, args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}) {
    this.proc = spawn(command, args, { cwd: options.cwd ?? ROOT, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    this.proc.stdout?.on('data', (d: Buffer) => (this.stdout += d.toString()));
    this.proc.stderr?.on('data', (d: Buffer) => (this.stderr += d.toString()));
    this.exited = new Promise((resolve) => {
      this.proc.on('exit', (code, signal) => {
        this.exitCode = code;
        this.signal = signal;
        resolve();
      });
    });
    live.add(this);
  }

  async output(pattern: RegExp, timeoutMs = 20_000): Promise<RegExpMatchArray> {
    return waitFor(() => pattern.exec(this.stdout) ?? pattern.exec(this.stderr), `output ${pattern} from ${this.proc.spawnargs.join(' ')}\n${this.stderr.slice(-2000)}`, timeoutMs);
  }

  async exit(timeoutMs = 30_000): Promise<number | null> {
    await Promise.race([this.exited, new Promise((_, reject) => setTimeout(() => reject(new Error(`process did not exit within ${timeoutMs} ms: ${this.stderr.slice(-2000)}`)), timeoutMs).unref())]);
    live.delete(this);
    return this.exitCode;
  }

  async kill(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (this.exitCode === null && this.signal === null) this.proc.kill(signal);
    await this.exit();
  }
}

const live = new Set<Child>();

/** For afterAll/afterEach: no process a test started outlives it. */
export async function killAll(): Promise<void> {
  await Promise.all([...live].map((c) => c.kill('SIGKILL').catch(() => undefined)));
}

export function spotwatch(args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): Child {
  return new Child(process.execPath, [CLI, ...args], options);
}
