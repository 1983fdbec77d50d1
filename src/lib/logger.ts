import pino from 'pino';
import { prettyDestination } from './pretty-log';

/** Structured logs: a fixed message plus a metadata object (`log.warn({ coin }, 'schema error')`). */
export type Logger = pino.Logger;

export interface LoggerOptions {
  level?: string;
  /** Where lines go; standard error by default, so `once --json` keeps standard output clean. */
  destination?: pino.DestinationStream;
  /**
   * More paths whose values never reach a log line (pino's redact syntax): the receiver kinds'
   * secrets, from ReceiverRegistry.logRedactPaths.
   */
  redact?: readonly string[];
  /**
   * json: a JSON object a line; pretty: readable lines (time, level, message, fields); auto
   * (the default): pretty when the lines go to a terminal (`tty`: standard error is one).
   */
  format?: LogFormat;
  tty?: boolean;
}

export const LOG_FORMATS = ['json', 'pretty', 'auto'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** Keys whose values never reach a log line, wherever they appear. */
const REDACT = [
  'password', 'pass', 'secret', 'token', 'authorization', 'bearer_token',
  '*.password', '*.pass', '*.secret', '*.token', '*.authorization', '*.bearer_token',
  'headers.authorization', '*.headers.authorization',
  // An exchange's credentials (config.exchanges[].credentials), wherever an object carrying them is logged.
  'credentials', '*.credentials', 'api_key', 'api_secret', 'passphrase', '*.api_key', '*.api_secret', '*.passphrase',
];

export function createLogger(options: LoggerOptions = {}): Logger {
  return pino(
    {
      level: options.level ?? process.env.SPOTWATCH_LOG_LEVEL ?? 'info',
      base: undefined,
      redact: { paths: [...new Set([...REDACT, ...(options.redact ?? [])])], censor: '[redacted]' },
    },
    destination(options),
  );
}

function destination(options: LoggerOptions): pino.DestinationStream {
  const format = options.format ?? 'auto';
  const tty = options.tty ?? (options.destination === undefined && process.stderr.isTTY === true);
  const base = options.destination ?? pino.destination({ fd: 2, sync: true });
  if (format === 'json' || (format === 'auto' && !tty)) return base;
  // Colors only on a terminal, and never when NO_COLOR is set (no-color.org).
  return prettyDestination(base, tty && process.env.NO_COLOR === undefined);
}

export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
