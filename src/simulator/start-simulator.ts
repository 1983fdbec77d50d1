/** The reference exchange on a real port (`spotwatch simulate`, the embedded default, e2e tests). */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SimulatorControl } from './control';
import { createSimulator } from './create-simulator';
import { resolveOptions, type SimulatorOptions } from './options';

/** How often due scenario steps are applied when no request comes in. */
const TICK_MS = 250;

export interface RunningSimulator {
  /** e.g. http://127.0.0.1:41234 (no trailing slash). */
  url: string;
  port: number;
  control: SimulatorControl;
  /** Closes the server, destroys hung and keep-alive connections, stops timers. */
  close(): Promise<void>;
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const { host, port, logger, scheduler } = resolveOptions(options);
  const sim = createSimulator(options);
  const server = createServer(sim.app);
  try {
    await listen(server, port, host);
  } catch (err) {
    sim.dispose();
    throw err;
  }
  const stopTicks = scheduler.every(TICK_MS, () => {
    try {
      sim.control.tick();
    } catch (err) {
      logger.error({ err }, 'scenario tick failed');
    }
  });
  const actual = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${actual}`,
    port: actual,
    control: sim.control,
    close: () => {
      closing ??= new Promise<void>((resolve, reject) => {
        stopTicks();
        sim.dispose();
        server.close((err) => (err === undefined ? resolve() : reject(err)));
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
