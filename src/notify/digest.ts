import { createHash } from 'node:crypto';
import type { Delivery, Notification } from './notifier';
import { span } from '../lib/duration';
import { oneLine } from './kit/text';

/** The wall clock of `ms` in `timeZone`: its fields, and its offset from UTC (ms). */
function wall(ms: number, timeZone: string): { y: number; m: number; d: number; offset: number } {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' }).formatToParts(ms);
  const get = (type: string): number => Number(parts.find((p) => p.type === type)?.value);
  const y = get('year');
  const m = get('month');
  const d = get('day');
  const asUtc = Date.UTC(y, m - 1, d, get('hour'), get('minute'), get('second'));
  return { y, m, d, offset: asUtc - Math.floor(ms / 1000) * 1000 };
}

/** The local date of `ms` in `timeZone`, as YYYY-MM-DD. */
export function localDate(ms: number, timeZone: string): string {
  const { y, m, d } = wall(ms, timeZone);
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/**
 * The instant the wall clock of `timeZone` reads `hh:mm` on the local date y-m-d. A time the
 * clocks skip (spring forward) is the instant just after the gap, as many hours later as were
 * skipped; a time they pass twice (fall back) is the later of the two.
 */
function instantOf(y: number, m: number, d: number, hh: number, mm: number, timeZone: string): number {
  const guess = Date.UTC(y, m - 1, d, hh, mm);
  const first = guess - wall(guess, timeZone).offset;
  return guess - wall(first, timeZone).offset;
}

/** The first instant after `after` at which the wall clock of `timeZone` reads `at` (HH:MM); DST-correct. */
export function nextDigestAt(after: number, at: string, timeZone: string): number {
  const [hh, mm] = at.split(':').map(Number) as [number, number];
  const { y, m, d } = wall(after, timeZone);
  for (let i = 0; i < 3; i++) {
    // Date.UTC carries a day past the month's end over to the next month.
    const day = new Date(Date.UTC(y, m - 1, d + i));
    const t = instantOf(day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate(), hh, mm, timeZone);
    if (t > after) return t;
  }
  throw new Error(`no ${at} in ${timeZone} within three days of ${new Date(after).toISOString()}`);
}

/** What a digest says: networks closed now, the day's outages, the maintenance windows ongoing or beginning in the next 24 h, the largest movers. */
export interface DigestContent {
  closed: { exchange: string; coin: string; network: string; direction: 'deposit' | 'withdraw'; since: number | null; message: string | null }[];
  outages: { exchange: string; coin: string; network: string; direction: 'deposit' | 'withdraw'; from: number | null; to: number | null; message: string | null }[];
  /** Each exchange's ongoing windows, then those it has scheduled to begin within 24 h, by begin. */
  maintenance: { exchange: string; title: string; state: 'ongoing' | 'scheduled'; begins: number; ends: number | null }[];
  movers: { exchange: string; symbol: string; changePercent: number }[];
}

const WORD = { deposit: 'deposits', withdraw: 'withdrawals' } as const;

/** Lines listed per section; the rest are counted (a storm closes thousands of networks). */
const MAX_LINES = 50;

function listed(lines: string[], all: number): string[] {
  return all > MAX_LINES ? [...lines.slice(0, MAX_LINES), `- ... and ${all - MAX_LINES} more`] : lines;
}

/** The digest as text (plain: each receiver escapes it as it escapes any annotation); undefined when there is nothing to say. */
export function digestText(c: DigestContent, day: string, timeZone: string, now: number, sendEmpty: boolean): { summary: string; description: string } | undefined {
  if (!sendEmpty && c.closed.length === 0 && c.outages.length === 0 && c.maintenance.length === 0 && c.movers.length === 0) return undefined;
  const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.000Z$/, 'Z');
  const lines: string[] = [];
  lines.push(`Closed now: ${c.closed.length}`);
  lines.push(
    ...listed(
      c.closed.slice(0, MAX_LINES).map((x) => {
        const since = x.since === null ? 'since before watching began' : `since ${iso(x.since)} (${span(now - x.since)})`;
        return `- ${x.exchange} ${x.coin} on ${x.network}: ${WORD[x.direction]} closed ${since}${x.message === null ? '' : `: ${x.message}`}`;
      }),
      c.closed.length,
    ),
  );
  lines.push(`Outages in the last 24 h: ${c.outages.length}`);
  lines.push(
    ...listed(
      c.outages.slice(0, MAX_LINES).map((x) => {
        const when = x.from === null ? 'from before watching began' : `${iso(x.from)} to ${x.to === null ? 'now' : iso(x.to)} (${span((x.to ?? now) - x.from)})`;
        return `- ${x.exchange} ${x.coin} on ${x.network}: ${WORD[x.direction]} ${when}${x.message === null ? '' : `: ${x.message}`}`;
      }),
      c.outages.length,
    ),
  );
  lines.push(`Maintenance ongoing or beginning in the next 24 h: ${c.maintenance.length}`);
  lines.push(
    ...listed(
      c.maintenance.slice(0, MAX_LINES).map((w) => {
        const ends = w.ends === null ? 'ends unknown' : `ends ${iso(w.ends)}`;
        const when = w.state === 'ongoing' ? `ongoing since ${iso(w.begins)}, ${ends}` : `begins ${iso(w.begins)} (${w.begins > now ? `in ${span(w.begins - now)}` : 'due'}), ${ends}`;
        return `- ${w.exchange}: ${oneLine(w.title)}: ${when}`;
      }),
      c.maintenance.length,
    ),
  );
  lines.push(`Largest 24h movers: ${c.movers.length === 0 ? 'none' : ''}`.trimEnd());
  for (const x of c.movers) lines.push(`- ${x.exchange} ${x.symbol}: ${x.changePercent > 0 ? '+' : ''}${x.changePercent}%`);
  return { summary: `spotwatch daily digest ${day} (${timeZone}): ${c.closed.length} closed, ${c.outages.length} outages in 24 h`, description: lines.join('\n') };
}

/**
 * The digest as one notification for `receiver`: a group of its own (alertname DailyDigest,
 * severity info) in the webhook v4 shape every receiver already renders, so it goes the way
 * every notification goes (the outbox, retries, dead letters).
 */
export function digestDelivery(receiver: string, day: string, text: { summary: string; description: string }, now: number, externalURL: string): Delivery {
  const labels = { alertname: 'DailyDigest', severity: 'info' };
  const annotations = { summary: text.summary, description: text.description };
  const fingerprint = createHash('sha256').update(`digest\u0000${day}`).digest('hex').slice(0, 16);
  const notification: Notification = {
    version: '4',
    groupKey: `{}:{digest="${day}"}`,
    truncatedAlerts: 0,
    status: 'firing',
    receiver,
    groupLabels: { alertname: 'DailyDigest' },
    commonLabels: labels,
    commonAnnotations: annotations,
    externalURL,
    alerts: [{ status: 'firing', labels, annotations, startsAt: new Date(now).toISOString(), endsAt: '0001-01-01T00:00:00Z', generatorURL: `${externalURL.replace(/\/$/, '')}/`, fingerprint }],
  };
  return { notification, idempotencyKey: `digest:${receiver}:${day}` };
}

/** When the digest is due: told once per local day, at `at` in `timeZone`, by a clock it is asked with. */
export class DigestSchedule {
  private next: number;

  constructor(
    private readonly at: string,
    private readonly timeZone: string,
    now: number,
  ) {
    this.next = nextDigestAt(now, at, timeZone);
  }

  /** The local day whose digest is due at `now`, once; undefined when none is. A day slept through is not made up. */
  due(now: number): string | undefined {
    if (now < this.next) return undefined;
    const day = localDate(this.next, this.timeZone);
    this.next = nextDigestAt(now, this.at, this.timeZone);
    return day;
  }

  get nextAt(): number {
    return this.next;
  }
}
