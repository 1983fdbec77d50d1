import { NETWORK_SORTS, type NetworkSort, type StatusQuery } from './status-networks';

/** The status page's query string read leniently: a value it does not know is left out (a person typed it). */
export function statusQuery(query: Record<string, unknown>): StatusQuery {
  const one = (v: unknown): string | undefined => (typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : undefined);
  const out: StatusQuery = {};
  const q = one(query.q);
  if (q !== undefined && q.trim() !== '') out.q = q.slice(0, 200);
  const sort = one(query.sort);
  if (sort !== undefined && (NETWORK_SORTS as readonly string[]).includes(sort)) out.sort = sort as NetworkSort;
  const page = Number(one(query.page));
  if (Number.isInteger(page) && page >= 1) out.page = page;
  return out;
}
