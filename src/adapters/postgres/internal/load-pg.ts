import { ConfigurationError } from '../../../errors/index.js';

/** The parts of the `pg` module the PostgreSQL store uses. */
export type PgModule = typeof import('pg');

/** How `pg` is imported; tests pass a stand-in to see what happens when it is missing. */
export type ImportPg = () => Promise<PgModule | { default: PgModule }>;

const importPgPackage: ImportPg = () => import('pg');

/**
 * Loads the `pg` driver on first use. `pg` is an optional peer dependency of `flowstack`: only
 * `flowstack/postgres` needs it, so core users never install or load it. When it is missing, the error
 * says what to install instead of Node's bare "Cannot find package".
 */
export async function loadPg(importPg: ImportPg = importPgPackage): Promise<PgModule> {
  try {
    const loaded = await importPg();
    // The ESM build of pg has named exports; a CommonJS interop may hand back only `default`.
    return 'Pool' in loaded ? loaded : loaded.default;
  } catch (error) {
    if (!isModuleNotFound(error)) throw error;
    throw new ConfigurationError({
      message:
        'The PostgreSQL driver is not installed: install pg to use flowstack/postgres (npm install pg).',
      cause: error,
    });
  }
}

function isModuleNotFound(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
}
