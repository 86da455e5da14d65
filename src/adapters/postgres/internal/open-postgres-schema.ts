import { StoreError } from '../../../store/store-error.js';
import type { PostgresConnection } from './create-postgres-connection.js';
import {
  createA2ATasksStatements,
  createMetaStatements,
  createSchedulesStatements,
  createTableStatements,
  postgresStoreSchemaVersion,
} from './postgres-schema.js';

/** Which schema to open, and whether the store may create it. */
export interface OpenPostgresSchemaOptions {
  /** The schema name as given, e.g. `flowstack`. */
  name: string;
  /** The same name, quoted for SQL. */
  quoted: string;
  createSchema: boolean;
  /** `host:port/database`, for messages. */
  address: string;
}

/**
 * Creates the store's schema and tables if they are missing, or checks the store schema version of
 * existing ones, in one transaction. A transaction-level advisory lock on the schema name makes processes
 * that start at once take turns: concurrent `CREATE … IF NOT EXISTS` statements can otherwise fail on
 * PostgreSQL's catalog unique indexes. Existing tables need no DDL (and so no CREATE privilege). A schema
 * whose `meta` table names a newer store schema is refused and left untouched: an older flowstack must
 * not write tables it does not understand.
 */
export async function openPostgresSchema(
  connection: PostgresConnection,
  options: OpenPostgresSchemaOptions,
): Promise<void> {
  const { name, quoted } = options;
  await connection.transaction(async (query) => {
    await query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`flowstack.schema:${name}`]);
    const [meta] = await query<{ found: string | null }>('SELECT to_regclass($1)::text AS found', [
      `${quoted}.meta`,
    ]);
    const [stored] =
      meta?.found == null
        ? []
        : await query<{ value: string }>(`SELECT value FROM ${quoted}.meta WHERE key = 'schema_version'`);
    if (stored === undefined) {
      if (!options.createSchema) {
        throw new StoreError({
          reason: 'unsupported_schema',
          store: 'postgres',
          message: `The schema '${name}' at ${options.address} has no flowstack store tables, and createSchema is false. Create them once with createSchema: true (needs the CREATE privilege).`,
        });
      }
      await query(createMetaStatements(quoted));
      await query(createTableStatements(quoted));
      await query(`INSERT INTO ${quoted}.meta (key, value) VALUES ('schema_version', $1)`, [
        String(postgresStoreSchemaVersion),
      ]);
      return;
    }
    const version = Number(stored.value);
    if (!Number.isSafeInteger(version) || version > postgresStoreSchemaVersion) {
      const why = Number.isSafeInteger(version)
        ? `but this flowstack reads up to version ${postgresStoreSchemaVersion}: a newer flowstack wrote it. Upgrade flowstack to open it`
        : 'which is not a version number this flowstack knows';
      throw new StoreError({
        reason: 'unsupported_schema',
        store: 'postgres',
        message: `The schema '${name}' at ${options.address} has store schema version '${stored.value}', ${why}. Its tables were left untouched.`,
      });
    }
    // Older schemas are upgraded here, step by step (needs the CREATE privilege once).
    if (version < 2) {
      await query(createSchedulesStatements(quoted));
      await query(`UPDATE ${quoted}.meta SET value = '2' WHERE key = 'schema_version'`);
    }
    if (version < 3) {
      await query(createA2ATasksStatements(quoted));
      await query(`UPDATE ${quoted}.meta SET value = '3' WHERE key = 'schema_version'`);
    }
  });
}
