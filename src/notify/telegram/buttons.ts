/**
 * One-tap silences (DESIGN.md section 4): a firing message carries the inline buttons
 * "Silence 1h" and "Silence 24h". A press silences the alerts that message lists: one silence
 * whose matchers are the labels they all share (for a single alert, all of its labels).
 *
 * Telegram gives a button at most 64 bytes of `callback_data`, so a button carries a short key,
 * `silence:1h:<key>`, and the daemon keeps what the key stands for (the labels) in a small file
 * of the state_dir, one per bot (`telegram-<bot id>.buttons.json`): a press after a restart, or
 * on a message days old, still silences what that message listed. The key is a hash of the
 * labels, so a message sent again (a retry, a repeat) carries the same key and the file does not
 * grow with every send; keys unused for BUTTON_DAYS are forgotten (their buttons then answer that
 * they expired and point at /silence).
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { readJsonIfAny, writeWhole } from '../../lib/whole-file';

/** The buttons, in the order shown. */
export const SILENCE_SPANS = [
  { span: '1h', text: 'Silence 1h', ms: 3_600_000 },
  { span: '24h', text: 'Silence 24h', ms: 86_400_000 },
] as const;

export type SilenceSpan = (typeof SILENCE_SPANS)[number];

/** How long a key is kept after the last message that carried it. */
export const BUTTON_DAYS = 30;
/** The most keys kept (the newest); a storm's groups share few label sets. */
export const MAX_BUTTONS = 2_000;
/** A key carried again within this long is not written again. */
const REFRESH_MS = 86_400_000;

type Labels = Record<string, string>;

/** The labels every one of `alerts` has, with the same value; empty when they share none. */
export function sharedLabels(alerts: readonly { labels: Labels }[]): Labels {
  const [first, ...rest] = alerts;
  if (first === undefined) return {};
  const out: Labels = {};
  for (const [name, value] of Object.entries(first.labels)) {
    if (rest.every((a) => a.labels[name] === value)) out[name] = value;
  }
  return out;
}

/** 16 characters of base64url (96 bits) of the labels, sorted by name. */
export function buttonKey(labels: Labels): string {
  const sorted = Object.keys(labels).sort().map((k) => [k, labels[k]]);
  return createHash('sha256').update(JSON.stringify(sorted)).digest('base64url').slice(0, 16);
}

/** What a button sends back: `silence:1h:<key>` (at most 28 bytes). */
export function callbackData(span: SilenceSpan, key: string): string {
  return `silence:${span.span}:${key}`;
}

/** A button of ours, read back; undefined for anything else. */
export function readCallbackData(data: string | undefined): { span: SilenceSpan; key: string } | undefined {
  const m = /^silence:(\w+):([A-Za-z0-9_-]{16})$/.exec(data ?? '');
  const span = SILENCE_SPANS.find((s) => s.span === m?.[1]);
  return span === undefined || m === null ? undefined : { span, key: m[2] as string };
}

/** The inline keyboard of a firing message: one row, "Silence 1h" and "Silence 24h". */
export function silenceKeyboard(key: string): { inline_keyboard: { text: string; callback_data: string }[][] } {
  return { inline_keyboard: [SILENCE_SPANS.map((s) => ({ text: s.text, callback_data: callbackData(s, key) }))] };
}

/** What the keys stand for, kept across restarts. */
export interface ButtonStore {
  /** Keeps `key` -> `labels` (throws when it cannot be written: the button then works until a restart). */
  remember(key: string, labels: Labels, now: number): void;
  /** The labels of a key, or undefined when it is not (or no longer) known. */
  recall(key: string): Labels | undefined;
}

interface Entry {
  labels: Labels;
  /** ms: when a message last carried it. */
  at: number;
}

function readEntries(value: unknown): Map<string, Entry> {
  const out = new Map<string, Entry>();
  const buttons = (value as { buttons?: unknown } | undefined)?.buttons;
  if (typeof buttons !== 'object' || buttons === null) return out;
  for (const [key, e] of Object.entries(buttons as Record<string, unknown>)) {
    const { labels, at } = (e ?? {}) as Partial<Entry>;
    if (typeof at !== 'number' || typeof labels !== 'object' || labels === null) continue;
    if (Object.values(labels).every((v) => typeof v === 'string')) out.set(key, { labels, at });
  }
  return out;
}

/**
 * The keys in `telegram-<bot id>.buttons.json` (by the bot, as the offset: the receiver of this
 * process that polls the bot is the one that sends buttons and answers their presses). Read once,
 * kept in memory, pruned there and written whole (lib/whole-file.ts) when a key is new or was
 * last carried more than a day ago; a press whose key memory does not know reads the file again.
 */
export function buttonFile(stateDir: string, token: string): ButtonStore & { path: string } {
  const path = join(stateDir, `telegram-${token.split(':')[0] ?? 'bot'}.buttons.json`);
  let entries: Map<string, Entry> | undefined;
  return {
    path,
    remember(key, labels, now) {
      entries ??= new Map([...readEntries(readJsonIfAny(path))].sort((a, b) => a[1].at - b[1].at));
      const seen = entries.get(key);
      if (seen !== undefined && now - seen.at < REFRESH_MS) return;
      entries.delete(key); // re-inserted last: the map stays oldest first
      entries.set(key, { labels, at: now });
      for (const [k, e] of entries) {
        if (entries.size <= MAX_BUTTONS && e.at > now - BUTTON_DAYS * 86_400_000) break;
        entries.delete(k);
      }
      writeWhole(path, `${JSON.stringify({ buttons: Object.fromEntries(entries) })}\n`);
    },
    recall(key) {
      return (entries?.get(key) ?? readEntries(readJsonIfAny(path)).get(key))?.labels;
    },
  };
}
