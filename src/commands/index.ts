/**
 * The commands (run, once, simulate, check-config, test-notify, replay), one file each: each reads its
 * config, builds what it needs through the composition root (daemon.ts, notify/orchestrator.ts,
 * notify/registry.ts), and answers with an exit code. Streams and environment come in as Io,
 * so every command runs in tests.
 */
export { checkConfigFile } from './check-config';
export type { Io } from './io';
export { pollOnce } from './once';
export { replay } from './replay';
export { runDaemon } from './run';
export { runSimulator } from './simulate';
export { testNotify } from './test-notify';
