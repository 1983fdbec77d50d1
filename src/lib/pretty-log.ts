/**
 * Log lines for a person at a terminal (log.format: pretty): `time LEVEL message key=value ...`,
 * from the JSON line pino writes, so redaction has already happened (a secret is `[redacted]`
 * here as in JSON). A small formatter rather than pino-pretty: no dependency and no transport
 * worker for a few fields a line. Every text of the record (the message, keys, values, an
 * error's message and stack) is written with its control and bidi characters as `\u001b`
 * (visibleText): an exchange's `withdrawDesc` reaches these lines, and its ESC, BEL, NUL or
 * U+202E must not colour, ring or reorder the terminal, nor a newline forge a line.
 */
import { visibleText } from './visible-text';

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const COLORS: Record<number, string> = { 10: '90', 20: '36', 30: '32', 40: '33', 50: '31', 60: '35' };

/** A field's value: bare when it is one plain word, else as JSON (which escapes C0 controls; visibleText the rest). */
function value(v: unknown): string {
  if (typeof v === 'string') return visibleText(/^[^\s"=]+$/.test(v) ? v : JSON.stringify(v));
  return visibleText(JSON.stringify(v) ?? String(v));
}

/** A line that is not JSON, as it was (its controls shown), ending in a newline. */
const asItWas = (line: string): string => `${visibleText(line.replace(/\n$/, ''))}\n`;

/** One JSON log line as a readable one (ending in a newline); a line that is not JSON, as it was. */
export function prettyLine(line: string, color: boolean): string {
  let rec: Record<string, unknown>;
  try {
    const parsed = JSON.parse(line) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return asItWas(line);
    rec = parsed as Record<string, unknown>;
  } catch {
    return asItWas(line);
  }
  const { level, time, msg, err, ...rest } = rec;
  const n = typeof level === 'number' ? level : 30;
  const name = visibleText(LEVELS[n] ?? String(level)).padEnd(5);
  const at = typeof time === 'number' ? new Date(time).toISOString().replace('T', ' ').replace('Z', '') : '';
  const paint = (code: string | undefined, text: string): string => (color && code !== undefined ? `\u001b[${code}m${text}\u001b[0m` : text);
  const fields = Object.entries(rest).map(([k, v]) => `${paint('90', `${visibleText(k)}=`)}${value(v)}`);
  let out = `${paint('90', at)} ${paint(COLORS[n], name)} ${typeof msg === 'string' ? visibleText(msg) : ''}${fields.length ? ` ${fields.join(' ')}` : ''}`;
  if (err !== undefined) {
    const e = (typeof err === 'object' && err !== null ? err : { message: String(err) }) as { type?: unknown; message?: unknown; stack?: unknown };
    out += ` ${paint('90', 'err=')}${value(`${typeof e.type === 'string' ? `${e.type}: ` : ''}${String(e.message ?? '')}`)}`;
    if (typeof e.stack === 'string' && n >= 50) out += `\n${e.stack.split('\n').slice(1).map((l) => `    ${visibleText(l.trim())}`).join('\n')}`;
  }
  return `${out}\n`;
}

/** A pino destination writing readable lines to `out`. */
export function prettyDestination(out: { write(text: string): unknown }, color: boolean): { write(line: string): void } {
  return {
    write(line: string): void {
      out.write(prettyLine(line, color));
    },
  };
}
