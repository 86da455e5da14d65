/**
 * Decides whether the PostgreSQL rows run: the server must answer at `BENCH_POSTGRES_URL` (default the
 * local `test` database), and flowstack's build must contain its PostgreSQL store. Drops the bench's
 * schemas so that every bench run starts from empty tables.
 */
import pg from 'pg';
import { loadPostgresAdapter } from '../frameworks/flowstack.js';

export interface PostgresReadiness {
  url: string;
  flowstack: boolean;
  langgraph: boolean;
  notes: string[];
}

export async function preparePostgres(): Promise<PostgresReadiness> {
  const url = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const notes: string[] = [];
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query('DROP SCHEMA IF EXISTS flowstack_bench CASCADE');
    await client.query('DROP SCHEMA IF EXISTS langgraph_bench CASCADE');
  } catch (error) {
    notes.push(
      `PostgreSQL rows skipped: no server answered at ${redactUrl(url)} (${(error as Error).message}). Set BENCH_POSTGRES_URL.`,
    );
    return { url, flowstack: false, langgraph: false, notes };
  } finally {
    await client.end().catch(() => undefined);
  }
  const adapter = await loadPostgresAdapter();
  if (!adapter)
    notes.push(
      'flowstack PostgreSQL rows skipped: this build of flowstack has no `dist/src/adapters/postgres` store yet.',
    );
  return { url, flowstack: adapter !== undefined, langgraph: true, notes };
}

function redactUrl(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]+@/, '//$1:***@');
}
