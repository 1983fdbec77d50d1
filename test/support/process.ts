import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
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

  /** A daemon's HTTP address, once it logged that it serves and answers /readyz with 200. */
  async ready(timeoutMs = 30_000): Promise<string> {
    const url = (await this.output(/"url":"(http:\/\/127\.0\.0\.1:\d+)","rules"/, timeoutMs))[1] as string;
    await waitFor(async () => (await fetch(`${url}/readyz`)).status === 200, 'the daemon to be ready', timeoutMs);
    return url;
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

/**
 * A daemon's config file `name`.yaml in `dir`, against the reference exchange at `simUrl` (coins
 * polled every 300 ms), with its own state directory, `rules` and the `notify` block given.
 */
export function daemonConfig(dir: string, simUrl: string, name: string, notify: string, rules = 'rules.yaml'): { file: string; stateDir: string } {
  const file = join(dir, `${name}.yaml`);
  const stateDir = join(dir, `data-${name}`);
  writeFileSync(
    file,
    `exchanges:
  - name: main
    base_url: ${simUrl}
    poll: { coins: 300ms, tickers: 2s }
server: { listen: "127.0.0.1:0" }
state_dir: ${stateDir}
rules_file: ${rules}
notify:
${notify}`,
  );
  return { file, stateDir };
}
