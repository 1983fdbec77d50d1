/**
 * A server that could not listen, in one line for the person who started it (`port 9464 on
 * 127.0.0.1 is already in use`), or undefined when `err` is not a listen error. Node's own
 * message (`listen EADDRINUSE: address already in use`) comes with a stack that says nothing more.
 */
export function listenProblem(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const { code, syscall, address, port } = err as { code?: unknown; syscall?: unknown; address?: unknown; port?: unknown };
  if (syscall !== 'listen') return undefined;
  const where = `port ${String(port)} on ${String(address)}`;
  switch (code) {
    case 'EADDRINUSE':
      return `${where} is already in use`;
    case 'EACCES':
      return `no permission to listen on ${where} (ports below 1024 need privileges)`;
    case 'EADDRNOTAVAIL':
      return `cannot listen on ${where}: ${String(address)} is not an address of this machine`;
    default:
      return `cannot listen on ${where}: ${String(code)}`;
  }
}
