import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type Database from 'better-sqlite3';
import { ConfigurationError } from '../../errors/index.js';
import { jitterDelayMs, requireOptionalPeer } from '../../util/index.js';
import { StoreError } from '../store-error.js';
import {
  createA2ATasksTable,
  createMetaTable,
  createSchedulesTable,
  createTables,
  sqliteStoreSchemaVersion,
} from './sqlite-schema.js';

/** How to open the SQLite store's database; see `SqliteStoreOptions` for what each setting trades. */
export interface OpenSqliteOptions {
  path: string;
  synchronous: 'normal' | 'full';
  busyTimeoutMs: number;
}

/**
 * Opens (creating if needed) the database file, sets the pragmas, and creates or checks the schema.
 * A database whose `meta` table names a newer store schema is closed again untouched, with an error
 * that says so: an older flowstack must not write tables it does not understand.
 */
export function openSqliteDatabase(options: OpenSqliteOptions): Database.Database {
  const inMemory = options.path === ':memory:' || options.path === '';
  if (!inMemory) createPrivately(options.path);
  const db = openDriver(options);
  try {
    // The busy timeout is in force before anything touches the file. Switching a new file to WAL can still
    // answer "database is locked" at once, without waiting, while another process creates the same file
    // (SQLite does not wait where waiting could deadlock), so the opening steps are tried again until the
    // busy timeout has passed.
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs))}`);
    const deadline = Date.now() + options.busyTimeoutMs;
    retryWhileLocked(() => db.pragma('journal_mode = WAL'), deadline);
    db.pragma(`synchronous = ${options.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
    retryWhileLocked(() => createOrCheckSchema(db, options.path), deadline);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

function createOrCheckSchema(db: Database.Database, path: string): void {
  db.transaction(() => {
    db.exec(createMetaTable);
    const stored = db
      .prepare<[], { value: string }>("SELECT value FROM meta WHERE key = 'schema_version'")
      .get()?.value;
    if (stored === undefined) {
      db.exec(createTables);
      db.prepare("INSERT INTO meta (key, value) VALUES ('schema_version', ?)").run(
        String(sqliteStoreSchemaVersion),
      );
      return;
    }
    const version = Number(stored);
    if (!Number.isSafeInteger(version) || version > sqliteStoreSchemaVersion) {
      const why = Number.isSafeInteger(version)
        ? `but this flowstack reads up to version ${sqliteStoreSchemaVersion}: a newer flowstack wrote it. Upgrade flowstack to open it`
        : 'which is not a version number this flowstack knows';
      throw new StoreError({
        reason: 'unsupported_schema',
        store: 'sqlite',
        message: `The database '${path}' has store schema version '${stored}', ${why}. Its tables were left untouched.`,
      });
    }
    // Older schemas are upgraded here, step by step.
    if (version < 2) {
      db.exec(createSchedulesTable);
      db.prepare("UPDATE meta SET value = '2' WHERE key = 'schema_version'").run();
    }
    if (version < 3) {
      db.exec(createA2ATasksTable);
      db.prepare("UPDATE meta SET value = '3' WHERE key = 'schema_version'").run();
    }
  }).immediate();
}

const lockedCodes = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_BUSY_RECOVERY', 'SQLITE_BUSY_SNAPSHOT']);

/** Runs `step`, again after a short pause while another connection holds the lock, until `deadline`. */
function retryWhileLocked<T>(step: () => T, deadline: number): T {
  for (let pause = 5; ; pause = Math.min(pause * 2, 100)) {
    try {
      return step();
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code !== 'string' || !lockedCodes.has(code) || Date.now() >= deadline) throw error;
      // Opening is synchronous (better-sqlite3), so the pause is too; it happens only at startup.
      // Jittered, so that processes opening one file together do not retry in step.
      Atomics.wait(pauseCell, 0, 0, jitterDelayMs(pause));
    }
  }
}

const pauseCell = new Int32Array(new SharedArrayBuffer(4));

/**
 * better-sqlite3 is an optional peer (a native build): loaded here, when a SQLite store is opened, so
 * that a PostgreSQL or in-memory user never installs or loads it. Installed with its build script
 * skipped (pnpm 10, npm with install scripts off), it loads but cannot open a file: said as such.
 */
function openDriver(options: OpenSqliteOptions): Database.Database {
  const Driver = requireOptionalPeer<typeof Database>({
    specifier: 'better-sqlite3',
    packageName: 'better-sqlite3',
    neededFor: 'to use the SQLite store (createSqliteStore, the default store of createAgent)',
    alternative:
      'Or give createAgent another store: createMemoryStore(), or createPostgresStore() from flowstack/postgres.',
  });
  try {
    return new Driver(options.path, { timeout: options.busyTimeoutMs });
  } catch (error) {
    const message = error instanceof Error ? error.message : '';
    if (message.includes('bindings file'))
      throw new ConfigurationError({
        message:
          'better-sqlite3 is installed but its native part was not built (its install script did not run): run `npm rebuild better-sqlite3`, or allow its build script in your package manager.',
        cause: error,
      });
    if (message.includes('NODE_MODULE_VERSION'))
      throw new ConfigurationError({
        message: `better-sqlite3 was built for another version of Node.js than this one (${process.version}): run \`npm rebuild better-sqlite3\`.`,
        cause: error,
      });
    throw error;
  }
}

/**
 * The database holds conversations: folders flowstack creates for it are 0700 and a file it creates is
 * 0600, so that other users of the machine cannot read it (SQLite gives the -wal and -shm files the
 * database file's mode). A folder or file that already exists keeps the mode its owner chose.
 */
function createPrivately(path: string): void {
  mkdirSync(dirname(resolve(path)), { recursive: true, mode: 0o700 });
  let created: number;
  try {
    created = openSync(path, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return;
    throw error;
  }
  closeSync(created);
  // The mode given to open is narrowed by the umask, never widened: set it exactly.
  chmodSync(path, 0o600);
}
