import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spotwatch, type Child } from './process';

/**
 * The end-to-end suites' set-up: the reference exchange (a child process) playing a scenario,
 * and the built daemon (another) watching it as exchange `e2e` with 1 s polls and a log
 * receiver. Every file goes in `dir`.
 */

/** Starts the reference exchange with `scenario` (the YAML of a scenario file); its URL. */
export async function scriptedExchange(dir: string, scenario: string, options: { coins: number; seed: number }): Promise<string> {
  writeFileSync(join(dir, 'scenario.yaml'), scenario);
  const sim = spotwatch(['simulate', '--listen', '127.0.0.1:0', '--coins', String(options.coins), '--seed', String(options.seed), '--scenario', join(dir, 'scenario.yaml')]);
  return (await sim.output(/reference exchange listening on (http:\/\/\S+)/))[1] as string;
}

/** Writes `dir`/spotwatch.yaml: exchange `e2e` at `simUrl`, the rules file, a log receiver; `extra` top-level YAML lines. */
export function writeDaemonConfig(dir: string, simUrl: string, rulesFile: string, extra = ''): string {
  const file = join(dir, 'spotwatch.yaml');
  writeFileSync(
    file,
    `exchanges:
  - name: e2e
    base_url: ${simUrl}
    poll: { coins: 1s, tickers: 1s }
server: { listen: "127.0.0.1:0" }
state_dir: ${join(dir, 'data')}
rules_file: ${rulesFile}
${extra}notify:
  receivers:
    - name: log
      log: {}
`,
  );
  return file;
}

/** Starts the daemon on `dir`/spotwatch.yaml; the child and its HTTP address. */
export async function startDaemon(dir: string): Promise<{ daemon: Child; url: string }> {
  const daemon = spotwatch(['run', '--config', join(dir, 'spotwatch.yaml')]);
  const url = (await daemon.output(/"url":"(http:\/\/127\.0\.0\.1:\d+)","rules"/))[1] as string;
  return { daemon, url };
}
