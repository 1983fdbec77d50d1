/** What the notice renderers share: a page of a list, a help-centre slug. */

/** `page` (1-based) of `items`, `size` a page; a page past the end is empty. */
export function pageOf<T>(items: readonly T[], page: number, size: number): T[] {
  return items.slice((page - 1) * size, page * size);
}

/** A positive integer query parameter, or `fallback` when absent; undefined when malformed. */
export function intParam(query: URLSearchParams, name: string, fallback: number, max = 1_000): number | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return fallback;
  if (!/^\d{1,9}$/.test(raw)) return undefined;
  const n = Number(raw);
  return n >= 1 && n <= max ? n : undefined;
}

/** `Will Delist Dogecoin (DOGE)` -> `will-delist-dogecoin-doge`: the last part of a help-centre URL. */
export function slug(title: string): string {
  return title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 100) || 'notice';
}
