import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { Express } from 'express';

export interface Listening {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Listens on HOST:PORT (port 0: any free port) and closes every connection on close. */
export function listen(app: Express, host: string, port: number): Promise<Listening> {
  return new Promise((resolve, reject) => {
    const server: Server = app.listen(port, host);
    server.once('error', reject);
    server.once('listening', () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolve({
        url: `http://${shown}:${address.port}`,
        port: address.port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

/** Splits HOST:PORT; `[::1]:9464` for IPv6. */
export function splitHostPort(text: string): { host: string; port: number } {
  const m = /^(.*):(\d{1,5})$/.exec(text);
  if (!m) throw new Error(`not HOST:PORT: ${text}`);
  return { host: (m[1] ?? '').replace(/^\[(.*)\]$/, '$1') || '0.0.0.0', port: Number(m[2]) };
}
