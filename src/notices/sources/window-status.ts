/**
 * The exchange's status where the dialect has no status endpoint but lists its maintenance
 * windows (OKX, Bybit; notices.md section 1, "status.state"): `maintenance` while a production
 * window of scope exchange or trading is ongoing, `post_only` while one is in OKX's pre-open,
 * else `normal`.
 */
import type { Maintenance, NoticeRead } from '../model';

type Window = Omit<Maintenance, 'exchange'>;

export function statusOfWindows(windows: readonly Window[], preOpen: ReadonlySet<string> = new Set()): NonNullable<NoticeRead['status']> {
  const closing = windows.filter((w) => w.state === 'ongoing' && (w.scope === 'exchange' || w.scope === 'trading'));
  const down = closing.find((w) => !preOpen.has(w.id));
  if (down !== undefined) return { state: 'maintenance', message: down.title, since: down.begins };
  const open = closing.find((w) => preOpen.has(w.id));
  if (open !== undefined) return { state: 'post_only', message: open.title, since: open.begins };
  return { state: 'normal', message: null, since: null };
}
