import type { CustomTypesConfig, Pool, PoolClient } from 'pg';
import { PostgresUnavailableError } from '../postgres-unavailable-error.js';

/** Runs one parameterized statement and returns its rows. */
export type Query = <Row>(text: string, values?: readonly unknown[]) => Promise<Row[]>;

/** The store's way to the database: single statements, and transactions on one pooled connection. */
export interface PostgresConnection {
  /** One statement on any pooled connection, in its own (implicit) transaction. */
  query: Query;
  /** Runs `body` in one transaction: committed when it returns, rolled back when it throws. */
  transaction<T>(body: (query: Query) => Promise<T>): Promise<T>;
}

/**
 * Wraps a pool so that every statement is parameterized and parses BIGINT with the store's own type
 * parsers (`types`), never by changing pg's global parsers, which the application may rely on. A pool
 * that cannot hand out a connection becomes a `PostgresUnavailableError` naming `address`.
 */
export function createPostgresConnection(options: {
  pool: Pool;
  address: string;
  types: CustomTypesConfig;
}): PostgresConnection {
  const { pool, address, types } = options;

  const run = async <Row>(client: PoolClient, text: string, values: readonly unknown[] = []) => {
    const result = await client.query({ text, values: [...values], types });
    // Several statements without parameters (the schema DDL) give an array of results and no `rows`.
    return (result.rows ?? []) as Row[];
  };

  const withClient = async <T>(
    body: (client: PoolClient, discard: (error: Error) => void) => Promise<T>,
  ): Promise<T> => {
    let client: PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      throw new PostgresUnavailableError({ address, cause: error });
    }
    // A checked-out client has no error listener; a connection lost between two statements would
    // otherwise be an unhandled 'error' event. Remember it and have the pool discard the client.
    let lost: Error | undefined;
    const onError = (error: Error) => {
      lost ??= error;
    };
    client.on('error', onError);
    try {
      return await body(client, onError);
    } catch (error) {
      lost ??= isConnectionError(error) ? (error as Error) : undefined;
      throw error;
    } finally {
      client.removeListener('error', onError);
      client.release(lost);
    }
  };

  return {
    query: (text, values) => withClient((client) => run(client, text, values)),
    transaction: (body) =>
      withClient(async (client, discard) => {
        await client.query('BEGIN');
        try {
          const result = await body((text, values) => run(client, text, values));
          await client.query('COMMIT');
          return result;
        } catch (error) {
          // If even ROLLBACK fails the connection is gone: the server rolls back on its own.
          await client.query('ROLLBACK').catch(discard);
          throw error;
        }
      }),
  };
}

/** Errors after which a connection must not go back to the pool. */
function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^(08|57P)/.test(code)) return true;
  const message = error instanceof Error ? error.message : '';
  return /Connection terminated|ECONNRESET|EPIPE/.test(message);
}
