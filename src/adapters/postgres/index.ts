export {
  createPostgresStore,
  type PostgresStore,
  type PostgresStoreOptions,
} from './create-postgres-store.js';
export { PostgresUnavailableError } from './postgres-unavailable-error.js';
