/**
 * The message of whatever was thrown. Duck-typed: errors from the SQLite driver, undici or
 * another realm may fail `instanceof Error`.
 */
export function errorMessage(err: unknown): string {
  return String((err as { message?: unknown } | null)?.message ?? err);
}
