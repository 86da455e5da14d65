import type { Row } from './sqlite-statements.js';

/** Turns a SQLite row into a contract record: a `null` column becomes an absent optional field. */
export function dropNulls<T extends object>(row: Row<T>): T {
  const record: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (value !== null) record[key] = value;
  }
  return record as T;
}
