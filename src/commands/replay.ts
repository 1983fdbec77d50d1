import { resolve } from 'node:path';
import { stepSettings } from '../runtime/settings';
import type { Transition } from '../alerts/lifecycle';
import { dialects } from '../exchange/dialects/registry';
import { RecordingError } from '../poll/recording/reader';
import { replayRecording } from '../poll/recording/replay';
import type { Change } from '../snapshot/changes';
import { loadOrReport, rulesOrReport, write, type Io } from './io';

export interface ReplayCommandOptions {
  /** `--rules FILE`: the rules to replay with, instead of the configuration's rules_file. */
  rules?: string | undefined;
  json: boolean;
}

/** Output is written in pieces of about this size (a long incident prints many thousand lines). */
const CHUNK = 64 * 1024;

/**
 * `spotwatch replay DIR`: a recording (`run --record DIR`) through `step` again, under the
 * configuration (and `--rules`), printing each change and each alert transition in order: a
 * readable line each, or with `--json` a JSON object a line. Deterministic: the same recording
 * and settings print the same bytes.
 */
export async function replay(dir: string, configPath: string, options: ReplayCommandOptions, io: Io): Promise<number> {
  // A replay sends nothing: a signing exchange's credentials are not needed to read its recording.
  const loaded = await loadOrReport(configPath, io, { rulesFile: options.rules === undefined, credentials: false });
  if (loaded === undefined) return 1;
  const config = options.rules === undefined ? loaded : { ...loaded, rules_file: resolve(options.rules) };
  const rules = await rulesOrReport(config, io);
  if (rules === undefined) return 1;
  const settings = stepSettings(config, rules);
  const dialectOf = new Map(config.exchanges.map((e) => [e.name, dialects.named(e.dialect)]));
  const line = options.json ? jsonLines : textLines;
  let out = '';
  try {
    const steps = replayRecording(dir, { settings, dialectOf: (name) => dialectOf.get(name), note: (text) => io.stderr.write(`spotwatch replay: ${text}\n`) });
    for await (const { at, input, result } of steps) {
      for (const c of result.changes) out += line.change(c);
      for (const t of result.transitions) out += line.alert(at, t.alert.labels.exchange ?? input.exchange, t);
      if (out.length >= CHUNK) {
        await write(io.stdout, out);
        out = '';
      }
    }
  } catch (err) {
    if (!(err instanceof RecordingError)) throw err;
    await write(io.stdout, out);
    io.stderr.write(`spotwatch: ${err.message}\n`);
    return 1;
  }
  await write(io.stdout, out);
  return 0;
}

interface Lines {
  change(c: Change): string;
  alert(at: number, exchange: string, t: Transition): string;
}

/** A transition as receivers are told of it: a change event fires (once). */
function shownAs(to: Transition['to']): Exclude<Transition['to'], 'event'> {
  return to === 'event' ? 'firing' : to;
}

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

/** One JSON object a line (README "Replay": the fields are stable). */
const jsonLines: Lines = {
  change: (c) =>
    `${JSON.stringify({
      at: iso(c.at),
      exchange: c.exchange,
      type: 'change',
      kind: c.kind,
      ...(c.coin !== undefined && { coin: c.coin }),
      ...(c.network !== undefined && { network: c.network }),
      ...(c.symbol !== undefined && { symbol: c.symbol }),
      before: c.before,
      after: c.after,
    })}\n`,
  alert: (at, exchange, { to, alert: a }) =>
    `${JSON.stringify({
      at: iso(at),
      exchange,
      type: 'alert',
      // A change event is told to receivers as firing (it never resolves): printed as they were told.
      to: shownAs(to),
      ...(to === 'event' && { event: true }),
      alertname: a.labels.alertname ?? '',
      labels: a.labels,
      fingerprint: a.fingerprint,
      startsAt: iso(a.startsAt),
      endsAt: iso(a.endsAt),
      annotations: a.annotations,
    })}\n`,
};

/**
 * A name as it is, when it reads unambiguously on a line; else quoted as JSON (an exchange's
 * names are untrusted: no control character reaches the terminal, no space splits a field).
 */
function word(text: string): string {
  return /^[^\s"\\\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+$/u.test(text) ? text : quote(text);
}

/** A value quoted as JSON, with the invisible characters JSON leaves as they are (bidi overrides, line separators) escaped too. */
function quote(value: unknown): string {
  return JSON.stringify(value).replace(/[\p{Cf}\p{Zl}\p{Zp}]/gu, (ch) => `\\u${(ch.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`);
}

/** One readable line each: time, exchange, then the change (what, where, before -> after) or the transition (to, alertname, the other labels). */
const textLines: Lines = {
  change: (c) => {
    const where = c.symbol !== undefined ? word(c.symbol) : [c.coin, c.network].flatMap((p) => (p === undefined ? [] : [word(p)])).join(' ');
    return `${iso(c.at)} ${word(c.exchange)} change ${c.kind} ${where}: ${quote(c.before)} -> ${quote(c.after)}\n`;
  },
  alert: (at, exchange, { to, alert: a }) => {
    const labels = Object.keys(a.labels)
      .filter((k) => k !== 'alertname' && k !== 'exchange')
      .sort()
      .map((k) => `${k}=${quote(a.labels[k])}`);
    return `${iso(at)} ${word(exchange)} alert ${shownAs(to)} ${word(a.labels.alertname ?? '')} {${labels.join(', ')}}${to === 'event' ? ' (change event)' : ''}\n`;
  },
};
