import type { Writable } from 'node:stream';
import { Agent } from 'undici';
import { loadConfigFile, type Config } from './config';
import { fingerprint, type Alert } from './alerts/alert';
import { buildDelivery } from './notify/notification';
import { ConfigError } from './config/errors';
import { loadRules } from './compose/settings';
import { clientFor, reach } from './compose/targets';
import { Daemon } from './daemon';
import { systemClock } from './lib/clock';
import { createLogger } from './lib/logger';
import { smtpTransport } from './notify/mail-transport';
import { NotifyError } from './notify/notifier';
import { receiverRegistry } from './notify/registry';
import type { Rule } from './rules/model';
import { loadScenarioFile, startSimulator } from './simulator';
import { StoreError } from './store/store';

/**
 * The commands (run, once, simulate, check-config, test-notify): each reads its config,
 * builds what it needs through the composition root (daemon.ts, notifications.ts, notify/registry.ts), and answers
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
  const logger = createLogger({ level: config.log.level, redact: receiverRegistry.logRedactPaths() });
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
        // Each endpoint on its own: tickers that fail must not take the coins with them.
        const coins = await attempt(() => client.fetchCoins());
        const tickers = await attempt(() => client.fetchTickers(ex.symbols));
        const issues = [...(coins.ok ? coins.value.issues : []), ...(tickers.ok ? tickers.value.issues : [])];
        for (const issue of issues) logger.warn({ exchange: ex.name, ...issue }, 'malformed record left out');
        if (tickers.ok && tickers.value.refused !== undefined) {
          io.stderr.write(`${ex.name}: watched symbols the exchange refused (missing): ${tickers.value.refused.join(', ')}\n`);
        }
        const failures = ([['coins', coins], ['tickers', tickers]] as const).flatMap(([endpoint, r]) => (r.ok ? [] : [{ endpoint, ...r.error }]));
        // The message names the endpoint (`tickers: HTTP 400 ...`).
        for (const f of failures) io.stderr.write(`${ex.name}: poll failed (${f.kind}): ${f.message}\n`);
        if (failures.length > 0) failed++;
        if (!coins.ok && !tickers.ok) {
          report.push({ name: ex.name, error: coins.error });
          continue;
        }
        // One endpoint failed: what the other read is printed, with the error beside it.
        report.push({
          name: ex.name,
          coins: coins.ok ? coins.value.records : null,
          tickers: tickers.ok ? tickers.value.records : null,
          ...(failures[0] !== undefined && { error: failures[0] }),
        });
        if (!options.json) {
          const parts: string[] = [];
          if (coins.ok) {
            const networks = coins.value.records.reduce((n, c) => n + c.networkList.length, 0);
            const closed = coins.value.records.flatMap((c) => c.networkList).filter((n) => !n.depositEnable || !n.withdrawEnable).length;
            parts.push(`${coins.value.records.length} coins, ${networks} networks (${closed} with deposits or withdrawals closed)`);
          }
          if (tickers.ok) parts.push(`${tickers.value.records.length} tickers`);
          io.stdout.write(`${ex.name}: ${parts.join(', ')}${issues.length > 0 ? `, ${issues.length} malformed records` : ''}\n`);
        }
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
  const logger = createLogger({ level: config.log.level, redact: receiverRegistry.logRedactPaths() });
  const dispatcher = new Agent({ connections: 1 });
  const notifier = receiverRegistry.create(r, { clock: systemClock, logger, dispatcher, mailTransport: smtpTransport });
  const now = systemClock.now();
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
    await dispatcher.close();
  }
}

type Attempt<T> = { ok: true; value: T } | { ok: false; error: { kind: string; message: string } };

/** One fetch, its failure kept as a value (so the other endpoint is still read and printed). */
async function attempt<T>(run: () => Promise<T>): Promise<Attempt<T>> {
  try {
    return { ok: true, value: await run() };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const kind = err instanceof Error && 'kind' in err ? String(err.kind) : 'error';
    return { ok: false, error: { kind, message } };
  }
}

function write(stream: Writable, text: string): Promise<void> {
  return new Promise((done, fail) => stream.write(text, (err) => (err ? fail(err) : done())));
}
