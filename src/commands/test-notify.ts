import { Agent } from 'undici';
import { fingerprint, type Alert } from '../alerts/alert';
import { systemClock } from '../lib/clock';
import { createLogger } from '../lib/logger';
import { smtpTransport } from '../notify/mail-transport';
import { buildDelivery } from '../notify/pipeline/build-delivery';
import { NotifyError } from '../notify/notifier';
import { receiverRegistry } from '../notify/registry';
import { loadOrReport, type Io } from './io';

/**
 * `spotwatch test-notify`: a clearly marked test notification through the receiver's real
 * path (template, transport, server); prints success or the exact error.
 */
export async function testNotify(path: string, receiverName: string, io: Io): Promise<number> {
  const config = await loadOrReport(path, io, { rulesFile: false });
  if (config === undefined) return 1;
  const r = config.notify.receivers.find((x) => x.name === receiverName);
  if (r === undefined) {
    io.stderr.write(`no receiver named "${receiverName}" (configured: ${config.notify.receivers.map((x) => x.name).join(', ')})\n`);
    return 1;
  }
  const logger = createLogger({ level: config.log.level, format: config.log.format, redact: receiverRegistry.logRedactPaths() });
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
