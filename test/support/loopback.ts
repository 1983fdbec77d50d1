import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Listens on a free loopback port; returns the server's base URL. */
export async function listenLoopback(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Closes the server and every connection it holds (keep-alive ones included). */
export async function closeServer(server: Server | undefined): Promise<void> {
  if (!server) return;
  await new Promise<void>((r) => {
    server.close(() => r());
    server.closeAllConnections();
  });
}

/**
 * The value of one series in a daemon's /metrics, by its exact label text
 * (`exchange="main",kind="schema"`); `missing` when no such series is exposed.
 */
export async function metricValue(baseUrl: string, name: string, labels: string, missing = 0): Promise<number> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}}`));
  return line === undefined ? missing : Number(line.slice(line.lastIndexOf(' ') + 1));
}
