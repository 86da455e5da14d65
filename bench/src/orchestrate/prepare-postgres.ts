/**
 * Decides whether the PostgreSQL rows run: the server must answer at `BENCH_POSTGRES_URL` (default the
 * local `test` database), and flowstack's build must contain its PostgreSQL store. Every process writes to a
 * schema of its own (`postgresSchemaFor`), so that no run reads or grows another's tables; the bench drops
 * its schemas (those named `flowstack_bench…` and `langgraph_bench…`) before the first run, in case an
 * earlier run was cut short, and again at the end (`dropBenchSchemas`). It touches nothing else.
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
    await dropSchemas(client);
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

/** The schema of one process: framework, K and run, under the bench's prefix. */
export function postgresSchemaFor(framework: 'flowstack' | 'langgraph', k: number, run: number): string {
  return `${framework}_bench_k${k}_r${run}`;
}

/** Drops every schema the bench made; the PostgreSQL rows are done. */
export async function dropBenchSchemas(url: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await dropSchemas(client);
    return undefined;
  } catch (error) {
    return `The bench's PostgreSQL schemas could not be dropped at the end: ${(error as Error).message}`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function dropSchemas(client: pg.Client): Promise<void> {
  const { rows } = await client.query<{ name: string }>(
    `SELECT nspname AS name FROM pg_namespace WHERE nspname ~ '^(flowstack|langgraph)_bench(_k[0-9]+_r[0-9]+)?$'`,
  );
  for (const { name } of rows) await client.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
}
