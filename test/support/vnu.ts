import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { requireBinary } from './binaries';

/** The Nu Html Checker's jar, from the vnu-jar package (its path is what the package exports). */
export const VNU_JAR = join(require.resolve('vnu-jar/package.json'), '..', 'build', 'dist', 'vnu.jar');

export interface VnuMessage {
  url: string;
  type: string;
  subType?: string;
  message: string;
  extract?: string;
  lastLine?: number;
}

/**
 * The checker's messages for HTML files, one run of `java -jar vnu.jar --format json` over all of
 * them (a JVM starts in seconds). Java comes from Debian's default-jre-headless: missing, the
 * suite fails saying so (.ci/run installs it), never skips.
 */
export function checkHtml(files: readonly string[]): Promise<{ version: string; messages: VnuMessage[] }> {
  const java = requireBinary(['java'], 'default-jre-headless');
  return new Promise((resolve, reject) => {
    // Exit status 1 means "errors found": the JSON report on stderr says which.
    execFile(java, ['-jar', VNU_JAR, '--format', 'json', ...files], { maxBuffer: 64 * 1024 * 1024, timeout: 120_000 }, (err, _stdout, stderr) => {
      try {
        const report = JSON.parse(stderr) as { version: string; messages: VnuMessage[] };
        resolve(report);
      } catch {
        reject(new Error(`the Nu Html Checker gave no JSON report (${err?.message ?? 'exit 0'}): ${stderr.slice(0, 2000)}`));
      }
    });
  });
}
