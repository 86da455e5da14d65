export { createMemoryStore, type MemoryStoreOptions } from './create-memory-store.js';
export { createSqliteStore, type SqliteStore, type SqliteStoreOptions } from './create-sqlite-store.js';
export { type DecodeSnapshotOptions, decodeSnapshot } from './decode-snapshot.js';
export { encodeSnapshot } from './encode-snapshot.js';
export { resolveSecretSealer, secretKeyVariable } from './resolve-secret-sealer.js';
export { advanceScheduleEntry, createScheduleEntry } from './schedule-entry.js';
export { migrateSnapshot, type SnapshotMigration, snapshotMigrations } from './snapshot-migrations.js';
export { StoreError, type StoreErrorReason } from './store-error.js';
export { threadSnapshotSchema } from './thread-snapshot-schema.js';
