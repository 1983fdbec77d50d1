/**
 * OKX's `GET /api/v5/system/status`, written from OKX's v5 docs ("Status" — "Get system
 * status"): `state` absent lists the scheduled, ongoing and pre_open windows; `state=<one of
 * scheduled, ongoing, pre_open, completed, canceled>` lists that state; any other value is
 * `{"code":"51000","msg":"Parameter state error"}`. Every value a string, times in ms, `""` for
 * none; no id. "Rate limit: 1 request per 5 seconds" (by IP, whatever `state`): a request
 * sooner is HTTP 429 `{"code":"50011","msg":"Too Many Requests"}`, as OKX answers its limits.
 * Every request is logged with its time, to assert what was asked and when.
 */
import type { DoubleAnswer } from '../exchange-double';

export const OKX_STATUS_PATH = '/api/v5/system/status';
const STATES = ['scheduled', 'ongoing', 'pre_open', 'completed', 'canceled'] as const;
const LISTED: ReadonlySet<string> = new Set(['scheduled', 'ongoing', 'pre_open']);
export const OKX_STATUS_GAP_MS = 5_000;

/** One window as OKX sends it; `title`, `state` and `begin` are all a test must give. */
export interface OkxWindow {
  title: string;
  state: (typeof STATES)[number];
  begin: number;
  end?: number;
  serviceType?: string;
  maintType?: string;
  href?: string;
}

export interface OkxAsked {
  readonly path: string;
  /** On the board's clock. */
  readonly at: number;
  readonly status: number;
}

export class OkxStatusBoard {
  /** The windows OKX knows, every state; a test changes them as OKX would. */
  windows: OkxWindow[] = [];
  readonly asked: OkxAsked[] = [];
  private last: number | undefined;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** The paths asked, in order. */
  paths(): string[] {
    return this.asked.map((a) => a.path);
  }

  /** The answer to `path` (with its query), or undefined when it is not the status path. */
  answer(path: string): DoubleAnswer | undefined {
    const url = new URL(path, 'http://okx.invalid');
    if (url.pathname !== OKX_STATUS_PATH) return undefined;
    const at = this.now();
    const limited = this.last !== undefined && at - this.last < OKX_STATUS_GAP_MS;
    // A refused request does not count against the limit (OKX counts what it serves).
    if (!limited) this.last = at;
    const reply = limited ? { status: 429, body: { code: '50011', msg: 'Too Many Requests', data: [] } } : this.listed(url.searchParams.get('state'));
    this.asked.push({ path, at, status: reply.status });
    return { status: reply.status, body: JSON.stringify(reply.body) };
  }

  private listed(state: string | null): { status: number; body: unknown } {
    if (state !== null && !(STATES as readonly string[]).includes(state)) return { status: 400, body: { code: '51000', msg: 'Parameter state error', data: [] } };
    const data = this.windows
      .filter((w) => (state === null ? LISTED.has(w.state) : w.state === state))
      .map((w) => ({
        begin: String(w.begin),
        end: w.end === undefined ? '' : String(w.end),
        href: w.href ?? '',
        preOpenBegin: '',
        scheDesc: '',
        serviceType: w.serviceType ?? '5',
        state: w.state,
        maintType: w.maintType ?? '1',
        env: '1',
        system: 'unified',
        title: w.title,
      }));
    return { status: 200, body: { code: '0', msg: '', data } };
  }
}
