import { accessSync, constants } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, join } from 'node:path';

/**
 * The path of a program an end-to-end suite needs. A missing one fails the suite with a clear
 * message (never a silent skip): .ci/run installs them from Debian's packages.
 */
export function requireBinary(names: string[], debianPackage: string): string {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    for (const name of names) {
      const p = join(dir, name);
      try {
        accessSync(p, constants.X_OK);
        return p;
      } catch {
        // not here
      }
    }
  }
  throw new Error(`${names[0]} is not installed: this end-to-end suite needs the Debian package "${debianPackage}" (apt-get install -y ${debianPackage}; .ci/run does it)`);
}

/** A free TCP port on loopback, for programs that cannot report the port they bound to. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}
