import { randomUUID } from 'node:crypto';
import express, { type Router } from 'express';
import type { Alert } from '../alerts/alert';
import type { Silence } from '../alerts/silence';
import { literalPattern, patternProblem } from '../lib/pattern';
import { isChangeKind } from '../snapshot/changes';
import type { ChangeQuery, DeadLetter, StoredChange } from '../store/store';

/** What the JSON API reads from the running daemon. */
export interface ApiSource {
  alerts(): Alert[];
  changes(query: ChangeQuery): StoredChange[];
  state(): unknown;
  deadLetters(limit: number): DeadLetter[];
  silences: {
    list(): Silence[];
    save(silence: Silence): void;
  };
  now(): number;
}

const MAX_LIMIT = 1000;

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

function one(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** `since`: RFC 3339 or milliseconds since the epoch. */
function parseSince(v: string): number | undefined {
  if (/^\d+$/.test(v)) return Number(v);
  const t = Date.parse(v);
  return Number.isNaN(t) ? undefined : t;
}

export function apiRouter(source: ApiSource): Router {
  const r = express.Router();

  r.get('/alerts', (_req, res) => {
    const data = source.alerts().map((a) => ({
      fingerprint: a.fingerprint,
      status: a.status,
      labels: a.labels,
      annotations: a.annotations,
      activeAt: iso(a.activeAt),
      startsAt: iso(a.startsAt),
      value: a.value,
    }));
    res.json({ status: 'success', data });
  });

  r.get('/changes', (req, res) => {
    const q = req.query;
    const bad = (error: string): void => {
      res.status(400).json({ status: 'error', error });
    };
    const query: ChangeQuery = { limit: 100 };
    const since = one(q.since);
    if (since !== undefined) {
      const t = parseSince(since);
      if (t === undefined) return bad('since: use RFC 3339 or milliseconds since the epoch');
      query.since = t;
    }
    const limit = one(q.limit);
    if (limit !== undefined) {
      if (!/^\d+$/.test(limit) || Number(limit) < 1) return bad(`limit: a whole number from 1 to ${MAX_LIMIT}`);
      query.limit = Math.min(MAX_LIMIT, Number(limit));
    }
    const before = one(q.before);
    if (before !== undefined) {
      if (!/^\d+$/.test(before)) return bad('before: the `next` cursor of a previous page');
      query.before = Number(before);
    }
    const kind = one(q.kind);
    if (kind !== undefined) {
      if (!isChangeKind(kind)) return bad('kind: not a change kind');
      query.kind = kind;
    }
    for (const key of ['exchange', 'coin', 'network'] as const) {
      const v = one(q[key]);
      if (v !== undefined) query[key] = v;
    }
    const rows = source.changes(query);
    const data = rows.map((c) => ({ ...c, at: iso(c.at) }));
    const last = rows[rows.length - 1];
    res.json({ status: 'success', data, next: rows.length === query.limit && last !== undefined ? String(last.id) : null });
  });

  r.get('/state', (_req, res) => {
    res.json({ status: 'success', data: source.state() });
  });

  r.get('/deadletters', (_req, res) => {
    const data = source.deadLetters(100).map((d) => ({
      id: d.id,
      receiver: d.receiver,
      attempts: d.attempts,
      error: d.error,
      createdAt: iso(d.createdAt),
      finishedAt: iso(d.finishedAt),
      notification: d.delivery.notification,
    }));
    res.json({ status: 'success', data });
  });

  r.get('/silences', (_req, res) => {
    const now = source.now();
    const data = source.silences.list().map((s) => ({
      id: s.id,
      matchers: s.matchers,
      startsAt: iso(s.startsAt),
      endsAt: iso(s.endsAt),
      comment: s.comment,
      createdBy: s.createdBy,
      state: now < s.startsAt ? 'pending' : now < s.endsAt ? 'active' : 'expired',
    }));
    res.json({ status: 'success', data });
  });

  r.post('/silences', express.json({ limit: '64kb' }), (req, res) => {
    const parsed = parseSilence(req.body, source.now());
    if (typeof parsed === 'string') {
      res.status(400).json({ status: 'error', error: parsed });
      return;
    }
    source.silences.save(parsed);
    res.status(201).json({ status: 'success', data: { silenceID: parsed.id } });
  });

  r.delete('/silences/:id', (req, res) => {
    const found = source.silences.list().find((s) => s.id === req.params.id);
    if (found === undefined) {
      res.status(404).json({ status: 'error', error: 'no such silence' });
      return;
    }
    const now = source.now();
    source.silences.save({ ...found, endsAt: Math.min(found.endsAt, now) });
    res.json({ status: 'success' });
  });

  return r;
}

const LABEL = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * A silence from the API: `matchers` as Alertmanager writes them (`[{name, value, isRegex,
 * isEqual}]`) or as a map of label -> pattern (our glob, `a|b`, `/regex/`); `startsAt`
 * (default now), `endsAt` (required), `comment`, `createdBy`.
 */
export function parseSilence(body: unknown, now: number): Silence | string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'expected a JSON object';
  const b = body as Record<string, unknown>;
  const matchers: { label: string; pattern: string }[] = [];
  if (Array.isArray(b.matchers)) {
    for (const m of b.matchers as unknown[]) {
      const { name, value, isRegex, isEqual } = (m ?? {}) as Record<string, unknown>;
      if (typeof name !== 'string' || !LABEL.test(name) || typeof value !== 'string') return 'matchers: each needs a label name and a string value';
      let pattern = isRegex === true ? `/${value}/` : literalPattern(value);
      if (isEqual === false) pattern = `!${pattern}`;
      matchers.push({ label: name, pattern });
    }
  } else if (typeof b.matchers === 'object' && b.matchers !== null) {
    for (const [label, pattern] of Object.entries(b.matchers as Record<string, unknown>)) {
      if (!LABEL.test(label) || typeof pattern !== 'string') return 'matchers: label -> pattern, both strings';
      matchers.push({ label, pattern });
    }
  }
  if (matchers.length === 0) return 'matchers: at least one is required';
  for (const m of matchers) {
    const problem = patternProblem(m.pattern);
    if (problem !== undefined) return `matchers: ${m.label}: ${problem}`;
  }
  const time = (v: unknown): number | undefined => (typeof v === 'string' ? Date.parse(v) : typeof v === 'number' ? v : undefined);
  const startsAt = b.startsAt === undefined ? now : time(b.startsAt);
  const endsAt = time(b.endsAt);
  if (startsAt === undefined || Number.isNaN(startsAt)) return 'startsAt: use RFC 3339';
  if (endsAt === undefined || Number.isNaN(endsAt)) return 'endsAt: required, RFC 3339';
  if (endsAt <= startsAt) return 'endsAt must be after startsAt';
  const text = (v: unknown, max: number): string => (typeof v === 'string' ? v.slice(0, max) : '');
  return { id: randomUUID(), matchers, startsAt, endsAt, comment: text(b.comment, 1000), createdBy: text(b.createdBy, 200) };
}
