/**
 * Opens an example on the SQLite store the command names (default `.flowstack/flowstack.db`).
 */
import { createSqliteStore } from '../../store/index.js';
import type { CliIo } from '../cli-io.js';
import { type CliExample, type CliExampleEntry, cliExamples } from '../examples.js';

export const defaultDbPath = '.flowstack/flowstack.db';

export function findExample(name: string): CliExampleEntry | undefined {
  return Object.hasOwn(cliExamples, name) ? cliExamples[name] : undefined;
}

export function openExample(
  entry: CliExampleEntry,
  options: { db?: string | undefined; io: CliIo },
): CliExample {
  const db = options.db ?? defaultDbPath;
  const store = createSqliteStore({ path: db });
  return entry.create({ store, env: options.io.env, db });
}
