/**
 * Opens an example on the SQLite store the command names (default `.flowstack/flowstack.db`).
 */
import type { RateLimiter, StateStore } from '../../spec/index.js';
import { createSqliteStore } from '../../store/index.js';
import type { CliIo } from '../cli-io.js';
import { type CliExample, type CliExampleEntry, cliExamples } from '../examples.js';

export const defaultDbPath = '.flowstack/flowstack.db';

export function findExample(name: string): CliExampleEntry | undefined {
  return Object.hasOwn(cliExamples, name) ? cliExamples[name] : undefined;
}

export async function openExample(
  entry: CliExampleEntry,
  options: { db?: string | undefined; io: CliIo; store?: StateStore; rateLimiter?: RateLimiter },
): Promise<CliExample> {
  const db = options.db ?? defaultDbPath;
  const store = options.store ?? createSqliteStore({ path: db });
  try {
    return await entry.create({
      store,
      env: options.io.env,
      db,
      ...(options.rateLimiter ? { rateLimiter: options.rateLimiter } : {}),
    });
  } catch (error) {
    await store.close();
    throw error;
  }
}
