import type { Writable } from 'node:stream';
import { Agent } from 'undici';
import { loadConfigFile, type Config } from './config';
import { fingerprint, type Alert } from './alerts/alert';
import { buildDelivery } from './alerts/notification';
import { clientFor, ConfigError, Daemon, loadRules, reach } from './daemon';
import { buildNotifier } from './delivery';
import { systemClock } from './lib/clock';
import { createLogger } from './lib/logger';
import { NotifyError } from './notify/notifier';
import type { Rule } from './rules/model';
import { loadScenarioFile, startSimulator } from './simulator';
import { StoreError } from './store/store';

/**
 * The commands (run, once, simulate, check-config, test-notify): each reads its config,
 * builds what it needs through the composition root (daemon.ts, delivery.ts), and answers
 * with an exit code. Streams and environment come in as Io, so every command runs in tests.
 */
/** The process's standard streams and environment, passed in so commands run in tests. */
export interface Io {
  stdout: Writable;
  stderr: Writable;
  env: NodeJS.ProcessEnv;
}

async function loadOrReport(path: string, io: Io): Promise<Config | undefined> {
  const result = await loadConfigFile(path, io.env);
  if (result.ok) return result.config;
  for (const p of result.problems) io.stderr.write(`${p}\n`);
  return undefined;
}

/** `spotwatch check-config`: the config and its rules file; every problem as FILE:LINE:COL: message. */
export async function checkConfigFile(path: string, io: Io): Promise<number> {
  const config = await loadOrReport(path, io);
  if (config === undefined) return 1;
  let rules: Rule[];
  try {
    rules = await loadRules(config, io.env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    for (const p of err.problems) io.stderr.write(`${p}\n`);
    return 1;
  }
  const n = (count: number, what: string): string => `${count} ${what}${count === 1 ? '' : 's'}`;
  io.stdout.write(`${path}: ok (${n(config.exchanges.length, 'exchange')}, ${n(rules.length, 'rule')}, ${n(config.notify.receivers.length, 'receiver')})\n`);
  return 0;
}

/** `spotwatch run`: the daemon, until SIGTERM or SIGINT. */
export async function runDaemon(path: string, io: Io): Promise<number> {
  const config = await loadOrReport(path, io);
  if (config === undefined) return 1;
  const logger = createLogger({ level: config.log.level });
  let daemon: Daemon;
  try {
    daemon = await Daemon.start(config, { logger }, { path, env: io.env });
  } catch (err) {
    if (err instanceof StoreError) {
      io.stderr.write(`spotwatch: ${err.message}\n`);
      return 1;
    }
    if (!(err instanceof ConfigError)) throw err;
    for (const p of err.problems) io.stderr.write(`${p}\n`);
    return 1;
  }
  const onHangup = (): void => {
    logger.info('SIGHUP: reloading the configuration');
    void daemon.reload();
  };
  await new Promise<void>((done) => {
    const onSignal = (signal: NodeJS.Signals): void => {
      logger.info({ signal }, 'stopping');
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
      done();
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
    process.on('SIGHUP', onHangup);
  });
  process.off('SIGHUP', onHangup);
  // A stop that hangs must not outlive the 10 s a supervisor gives.
  const force = setTimeout(() => {
    logger.error('stop took longer than 9 s; exiting');
    process.exit(1);
  }, 9_000);
  force.unref();
  await daemon.stop();
  clearTimeout(force);
  return 0;
}

/** `spotwatch simulate`: the reference exchange, until SIGTERM or SIGINT. */
export async function runSimulator(
  options: { listen?: { host: string; port: number } | undefined; scenario?: string | undefined; coins?: number | undefined; seed?: number | undefined },
  io: Io,
): Promise<number> {
  const logger = createLogger();
  const scenario = options.scenario !== undefined ? await loadScenarioFile(options.scenario) : undefined;
  const sim = await startSimulator({
    host: options.listen === undefined ? '127.0.0.1' : options.listen.host || '0.0.0.0',
    port: options.listen?.port ?? 8080,
    logger,
    ...(options.coins !== undefined && { coins: options.coins }),
    ...(options.seed !== undefined && { seed: options.seed }),
    ...(scenario !== undefined && { scenario }),
  });
  io.stdout.write(`reference exchange listening on ${sim.url}\n`);
  await new Promise<void>((done) => {
    process.once('SIGTERM', () => done());
    process.once('SIGINT', () => done());
  });
  await sim.close();
  return 0;
}

/** `spotwatch once`: every exchange polled once; `--json` prints the exact records. */
export async function pollOnce(path: string, options: { json: boolean }, io: Io): Promise<number> {
  const config = await loadOrReport(path, io);
  if (config === undefined) return 1;
  const logger = createLogger({ level: config.log.level });
  const dispatcher = new Agent({ connections: 2 });
  const report: unknown[] = [];
  let failed = 0;
  try {
    for (const ex of config.exchanges) {
      const target = await reach(ex, systemClock, logger, false);
      const client = clientFor(target, systemClock, dispatcher, logger);
      try {
        const coins = await client.fetchCoins();
        const tickers = await client.fetchTickers(ex.symbols);
        for (const issue of [...coins.issues, ...tickers.issues]) logger.warn({ exchange: ex.name, ...issue }, 'malformed record left out');
        report.push({ name: ex.name, coins: coins.records, tickers: tickers.records });
        if (!options.json) {
          const networks = coins.records.reduce((n, c) => n + c.networkList.length, 0);
          const closed = coins.records.flatMap((c) => c.networkList).filter((n) => !n.depositEnable || !n.withdrawEnable).length;
          io.stdout.write(
            `${ex.name}: ${coins.records.length} coins, ${networks} networks (${closed} with deposits or withdrawals closed), ${tickers.records.length} tickers` +
              `${coins.issues.length + tickers.issues.length > 0 ? `, ${coins.issues.length + tickers.issues.length} malformed records` : ''}\n`,
          );
        }
      } catch (err) {
        failed++;
        const message = err instanceof Error ? err.message : String(err);
        const kind = err instanceof Error && 'kind' in err ? String(err.kind) : 'error';
        io.stderr.write(`${ex.name}: poll failed (${kind}): ${message}\n`);
        report.push({ name: ex.name, error: { kind, message } });
      } finally {
        await target.embedded?.close();
      }
    }
  } finally {
    await dispatcher.close();
  }
  if (options.json) await write(io.stdout, `${JSON.stringify({ exchanges: report })}\n`);
  return failed > 0 ? 1 : 0;
}

/**
 * `spotwatch test-notify`: a clearly marked test notification through the receiver's real
 * path (template, transport, server); prints success or the exact error.
 */
export async function testNotify(path: string, receiverName: string, io: Io): Promise<number> {
  const config = await loadOrReport(path, io);
  if (config === undefined) return 1;
  const r = config.notify.receivers.find((x) => x.name === receiverName);
  if (r === undefined) {
    io.stderr.write(`no receiver named "${receiverName}" (configured: ${config.notify.receivers.map((x) => x.name).join(', ')})\n`);
    return 1;
  }
  const logger = createLogger({ level: config.log.level });
  const notifier = buildNotifier(r, logger);
  const now = Date.now();
  const labels = { alertname: 'SpotwatchTestNotification', exchange: 'test', severity: 'info' };
  const alert: Alert = {
    fingerprint: fingerprint(labels, String(now)),
    ruleId: 'test',
    entity: 'test',
    labels,
    annotations: { summary: 'spotwatch test notification: ignore me', description: `Sent by spotwatch test-notify to receiver ${receiverName}.` },
    status: 'firing',
    activeAt: now,
    startsAt: now,
    endsAt: null,
    lastActiveAt: now,
    lastNotifiedAt: now,
    value: null,
    event: true,
  };
  const externalURL = config.server.external_url ?? `http://${config.server.listen}`;
  try {
    await notifier.send(buildDelivery(r.name, { alertname: labels.alertname }, [alert], externalURL, now));
    io.stdout.write(`test notification delivered to ${r.name} (${r.kind})\n`);
    return 0;
  } catch (err) {
    const reason = err instanceof NotifyError ? ` [${err.reason}${err.retryable ? ', would be retried' : ''}]` : '';
    io.stderr.write(`test notification to ${r.name} (${r.kind}) failed${reason}: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  } finally {
    await notifier.close?.();
  }
}

function write(stream: Writable, text: string): Promise<void> {
  return new Promise((done, fail) => stream.write(text, (err) => (err ? fail(err) : done())));
}
