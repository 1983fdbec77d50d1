import { Agent } from 'undici';
import { systemClock } from '../../src/lib/clock';
import { silentLogger } from '../../src/lib/logger';
import { smtpTransport } from '../../src/notify/mail-transport';
import type { ReceiverDeps } from '../../src/notify/plugin';

/**
 * The edges a notifier is given, as a test gives them: a real connection pool (closed by
 * `close`), the system clock, a silent logger and nodemailer's SMTP transport.
 */
export function receiverDeps(over: Partial<ReceiverDeps> = {}): ReceiverDeps & { close(): Promise<void> } {
  const dispatcher = new Agent({ connections: 4, keepAliveTimeout: 10_000 });
  return {
    clock: systemClock,
    logger: silentLogger(),
    dispatcher,
    mailTransport: smtpTransport,
    ...over,
    close: () => dispatcher.close(),
  };
}
