/** `HOST:PORT` listen addresses: `127.0.0.1:9464`, `localhost:8080`, `[::1]:9464`, `:9464`. */

/** A listen address, parsed. */
export interface HostPort {
  /** Empty means every interface, as in Prometheus' `--web.listen-address=:9090`. */
  host: string;
  port: number;
}

const HOST_PORT = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]*):(\d{1,5})$/;

export function parseHostPort(text: string): HostPort | undefined {
  const m = HOST_PORT.exec(text);
  if (m === null) return undefined;
  const port = Number(m[2]);
  if (port > 65_535) return undefined;
  const host = (m[1] ?? '').replace(/^\[(.*)\]$/, '$1');
  return { host, port };
}
