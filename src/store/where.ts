/**
 * The `WHERE` clause of a listing's filters: each condition (`coin = ?`) whose value is given,
 * joined by AND, and those values in order ('' and none when no filter is given).
 */
export function whereOf(conditions: readonly (readonly [sql: string, value: string | number | undefined])[]): { where: string; args: (string | number)[] } {
  const given = conditions.filter((c): c is readonly [string, string | number] => c[1] !== undefined);
  return { where: given.length > 0 ? `WHERE ${given.map((c) => c[0]).join(' AND ')}` : '', args: given.map((c) => c[1]) };
}
