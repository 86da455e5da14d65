import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigurationError, VersionConflictError } from '../../errors/index.js';
import type { ThreadCommit } from '../../spec/index.js';
import { StoreError } from '../../store/store-error.js';
import { describeWithService, serviceAvailable } from '../../test/require-service.js';
import { describeStoreConformance } from '../../test/store-conformance.js';
import {
  createPostgresStore,
  type PostgresStore,
  type PostgresStoreOptions,
  PostgresUnavailableError,
} from './index.js';

const url = process.env.FLOWSTACK_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const available = await serviceAvailable('postgres', url);

// Every store of this run gets a fresh schema under one prefix; afterAll drops them all.
const run = `flowstack_test_${randomBytes(4).toString('hex')}`;
let schemas = 0;
const newSchema = () => `${run}_${++schemas}`;
const createStore = (schema = newSchema(), options: PostgresStoreOptions = {}) =>
  createPostgresStore({ connectionString: url, schema, ...options });

let adminPool: pg.Pool | undefined;
/** A plain pg pool, to look at the tables directly. */
const admin = () => {
  adminPool ??= new pg.Pool({ connectionString: url, max: 2 });
  return adminPool;
};

const commitOf = (threadId: string, expectedVersion: number, rest: Partial<ThreadCommit> = {}) => ({
  threadId,
  expectedVersion,
  data: `{"v":${expectedVersion + 1}}`,
  now: 1_700_000_000_000 + expectedVersion,
  ...rest,
});

/** Closes every store, even when a test failed half-way. */
async function closeAll(stores: readonly PostgresStore[]) {
  await Promise.all(stores.map((store) => store.close()));
}

describe('createPostgresStore without a server', () => {
  it('refuses a schema name that is not a plain identifier', () => {
    expect(() => createPostgresStore({ schema: 'flow"stack; DROP' })).toThrow(ConfigurationError);
  });

  it('fails with a typed error naming the address (never the password) when nothing listens', async () => {
    const store = createPostgresStore({
      connectionString: 'postgres://app:s3cret@127.0.0.1:1/agents',
      connectTimeoutMs: 2_000,
    });
    expect(store.address).toBe('127.0.0.1:1/agents');
    const error = await store.loadThread('t1').catch((caught: unknown) => caught);
    expect(PostgresUnavailableError.isInstance(error)).toBe(true);
    const unavailable = error as PostgresUnavailableError;
    expect(unavailable.code).toBe('postgres_unavailable');
    expect(unavailable.address).toBe('127.0.0.1:1/agents');
    expect(unavailable.message).toContain('PostgreSQL at 127.0.0.1:1/agents');
    expect(unavailable.message).not.toContain('s3cret');
    expect(JSON.stringify(unavailable)).not.toContain('s3cret');
    // Each call tries again, and fails the same way.
    await expect(store.ready()).rejects.toSatisfy((caught) => PostgresUnavailableError.isInstance(caught));
    await store.close();
  }, 5_000);

  it('serviceAvailable says no for a closed port', async () => {
    expect(await serviceAvailable('postgres', 'postgres://127.0.0.1:1/x', { timeoutMs: 2_000 })).toBe(false);
  });
});

describeWithService({ kind: 'postgres', url, available, describe }, 'createPostgresStore', () => {
  afterAll(async () => {
    const pool = admin();
    const { rows } = await pool.query<{ name: string }>(
      'SELECT nspname AS name FROM pg_namespace WHERE starts_with(nspname, $1)',
      [`${run}_`],
    );
    for (const { name } of rows) await pool.query(`DROP SCHEMA "${name}" CASCADE`);
    await pool.end();
  });

  describeStoreConformance('postgres store conformance', () => createStore(), {
    describe,
    it,
    reopen: async (store) => {
      await store.close();
      return createStore((store as PostgresStore).schema);
    },
  });

  it('serviceAvailable says yes for the test server', async () => {
    expect(await serviceAvailable('postgres', url)).toBe(true);
  });

  it('lets exactly one of three pools (as three processes) win each version', async () => {
    const schema = newSchema();
    const stores = [createStore(schema), createStore(schema), createStore(schema)];
    try {
      const creates = await Promise.allSettled(
        stores.map((store, writer) => store.commit(commitOf('race', 0, { data: `{"creator":${writer}}` }))),
      );
      expect(creates.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
      for (let version = 1; version <= 15; version++) {
        const settled = await Promise.allSettled(
          stores.map((store, writer) =>
            store.commit(
              commitOf('race', version, {
                data: `{"writer":${writer}}`,
                history: [{ kind: 'message', data: `{"writer":${writer}}`, turnId: `turn_${version}` }],
                observations: [{ type: 'thoughts', data: `{"writer":${writer}}` }],
              }),
            ),
          ),
        );
        const winners = settled.filter((outcome) => outcome.status === 'fulfilled');
        expect(winners).toHaveLength(1);
        for (const outcome of settled) {
          if (outcome.status === 'rejected') {
            expect(VersionConflictError.isInstance(outcome.reason)).toBe(true);
            expect(outcome.reason).toMatchObject({ expectedVersion: version, actualVersion: version + 1 });
          }
        }
      }
      const thread = await stores[1]?.loadThread('race');
      expect(thread?.version).toBe(16);
      expect((await stores[2]?.readHistory('race'))?.map((entry) => entry.seq)).toEqual(
        Array.from({ length: 15 }, (_, index) => index + 1),
      );
      expect(await stores[0]?.readObservations('race')).toHaveLength(15);
    } finally {
      await closeAll(stores);
    }
  });

  it('hands out observation ids in commit order across pools: a store-wide tail by id misses nothing', async () => {
    const schema = newSchema();
    const writers = Array.from({ length: 4 }, () => createStore(schema));
    try {
      await Promise.all(writers.map((store) => store.ready()));
      const committed: number[] = [];
      let writing = true;
      const seen: number[] = [];
      // Reads the table the way a store-wide event relay would: everything after the last id it saw.
      const tail = async () => {
        let cursor = 0;
        for (;;) {
          const last = !writing;
          const { rows } = await admin().query<{ id: string }>(
            `SELECT id FROM "${schema}".observations WHERE id > $1 ORDER BY id`,
            [cursor],
          );
          for (const row of rows) {
            cursor = Number(row.id);
            seen.push(cursor);
          }
          if (last) return;
        }
      };
      const tailing = tail();
      await Promise.all(
        writers.map(async (store, writer) => {
          for (let version = 0; version < 40; version++) {
            const result = await store.commit(
              commitOf(`writer_${writer}`, version, {
                observations: [
                  { type: 'thoughts', data: '{}' },
                  { type: 'final-response', data: '{}' },
                ],
              }),
            );
            committed.push(...result.observationIds);
          }
        }),
      );
      writing = false;
      await tailing;
      expect(committed).toHaveLength(320);
      expect(seen).toEqual([...committed].sort((a, b) => a - b));
    } finally {
      await closeAll(writers);
    }
  });

  it('replays one thread by afterId without a gap while three pools race to commit to it', async () => {
    const schema = newSchema();
    const writers = [createStore(schema), createStore(schema), createStore(schema)];
    const reader = createStore(schema);
    try {
      await Promise.all([...writers, reader].map((store) => store.ready()));
      const committed: number[] = [];
      let writing = true;
      const seen: number[] = [];
      const replay = async () => {
        for (;;) {
          const last = !writing;
          const cursor = seen.at(-1) ?? 0;
          const rows = await reader.readObservations('shared', { afterId: cursor });
          for (const row of rows) {
            expect(row.id).toBeGreaterThan(seen.at(-1) ?? 0);
            seen.push(row.id);
          }
          if (last) return;
        }
      };
      const replaying = replay();
      await Promise.all(
        writers.map(async (store, writer) => {
          for (let won = 0; won < 10; ) {
            const version = (await store.loadThread('shared'))?.version ?? 0;
            try {
              const observations = [{ type: 'thoughts', data: `{"writer":${writer}}` }];
              const result = await store.commit(commitOf('shared', version, { observations }));
              committed.push(...result.observationIds);
              won++;
            } catch (error) {
              if (!VersionConflictError.isInstance(error)) throw error;
            }
          }
        }),
      );
      writing = false;
      await replaying;
      expect(seen).toHaveLength(30);
      expect(seen).toEqual([...committed].sort((a, b) => a - b));
    } finally {
      await closeAll([...writers, reader]);
    }
  });

  it('takes observation ids only after an earlier in-flight commit has ended', async () => {
    const schema = newSchema();
    const store = createStore(schema);
    await store.ready();
    const inFlight = await admin().connect();
    try {
      // Another process's commit, stopped between taking its id and COMMIT.
      await inFlight.query('BEGIN');
      const { rows } = await inFlight.query<{ id: string }>(
        `UPDATE "${schema}".counters SET value = value + 1 RETURNING value AS id`,
      );
      const later = store.commit(commitOf('t2', 0, { observations: [{ type: 'thoughts', data: '{}' }] }));
      let waiting = false;
      for (let poll = 0; poll < 2_000 && !waiting; poll++) {
        const blocked = await admin().query(
          "SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND strpos(query, $1) > 0",
          [`"${schema}".counters`],
        );
        waiting = blocked.rows.length > 0;
      }
      expect(waiting).toBe(true);
      await inFlight.query(
        `INSERT INTO "${schema}".observations (id, thread_id, type, data, created_at) VALUES ($1, 't1', 'a', '{}', 0)`,
        [rows[0]?.id],
      );
      await inFlight.query('COMMIT');
      expect((await later).observationIds).toEqual([Number(rows[0]?.id) + 1]);
      expect((await store.readObservations('t1')).map((row) => row.id)).toEqual([Number(rows[0]?.id)]);
    } finally {
      inFlight.release();
      await store.close();
    }
  });

  it('creates the schema once when several processes start at the same moment', async () => {
    const schema = newSchema();
    const stores = Array.from({ length: 6 }, () => createStore(schema));
    try {
      await Promise.all(stores.map((store) => store.ready()));
      const { rows } = await admin().query(`SELECT key, value FROM "${schema}".meta`);
      expect(rows).toEqual([{ key: 'schema_version', value: '3' }]);
    } finally {
      await closeAll(stores);
    }
  });

  it('refuses a schema written by a newer flowstack and leaves it untouched', async () => {
    const schema = newSchema();
    const first = createStore(schema);
    await first.commit(commitOf('t1', 0));
    await first.close();
    await admin().query(`UPDATE "${schema}".meta SET value = '99' WHERE key = 'schema_version'`);
    const newer = createStore(schema);
    const error = await newer.loadThread('t1').catch((caught: unknown) => caught);
    expect(StoreError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'unsupported_schema' });
    expect((error as Error).message).toContain("version '99'");
    await newer.close();
    const { rows } = await admin().query(`SELECT data FROM "${schema}".threads`);
    expect(rows).toEqual([{ data: '{"v":1}' }]);
  });

  it('upgrades a version 1 schema: adds the schedules and A2A task tables, keeps the threads', async () => {
    const schema = newSchema();
    const first = createStore(schema);
    await first.commit(commitOf('t1', 0));
    await first.close();
    await admin().query(`DROP TABLE "${schema}".schedules; DROP TABLE "${schema}".a2a_tasks`);
    await admin().query(`UPDATE "${schema}".meta SET value = '1' WHERE key = 'schema_version'`);
    const upgraded = createStore(schema);
    try {
      expect((await upgraded.loadThread('t1'))?.version).toBe(1);
      expect(await upgraded.listSchedules?.()).toEqual([]);
      expect(await upgraded.listA2ATasks?.({ scope: 'alice' })).toEqual([]);
      const { rows } = await admin().query(`SELECT value FROM "${schema}".meta WHERE key = 'schema_version'`);
      expect(rows).toEqual([{ value: '3' }]);
    } finally {
      await upgraded.close();
    }
  });

  it('with createSchema: false, a missing schema is an error and nothing is created', async () => {
    const schema = newSchema();
    const store = createStore(schema, { createSchema: false });
    await expect(store.ready()).rejects.toMatchObject({ reason: 'unsupported_schema' });
    await store.close();
    const { rows } = await admin().query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
    expect(rows).toEqual([]);
  });

  it("uses a given pool without ending it or changing pg's global BIGINT parser", async () => {
    const pool = new pg.Pool({ connectionString: url, max: 3 });
    pool.on('error', () => {});
    const store = createPostgresStore({ pool, schema: newSchema() });
    try {
      await store.commit(commitOf('t1', 0, { observations: [{ type: 'thoughts', data: '{}' }] }));
      const thread = await store.loadThread('t1');
      expect(typeof thread?.createdAt).toBe('number');
      expect(typeof (await store.readObservations('t1'))[0]?.id).toBe('number');
      await store.close();
      await expect(store.loadThread('t1')).rejects.toMatchObject({ reason: 'closed' });
      const { rows } = await pool.query('SELECT 9007199254740993::bigint AS n');
      expect(rows[0]?.n).toBe('9007199254740993');
    } finally {
      await pool.end();
    }
  });

  it('rolls back the whole commit when a row fails inside the transaction', async () => {
    const store = createStore();
    try {
      const first = await store.commit(
        commitOf('t1', 0, {
          history: [{ kind: 'message', data: '"one"', turnId: 'turn_1' }],
          observations: [{ type: 'thoughts', data: '{}' }],
        }),
      );
      const read = async () => ({
        thread: await store.loadThread('t1'),
        history: await store.readHistory('t1'),
        observations: await store.readObservations('t1'),
      });
      const before = await read();
      // PostgreSQL text cannot hold NUL: the observation insert fails after the snapshot and history rows.
      await expect(
        store.commit(
          commitOf('t1', 1, {
            history: [{ kind: 'message', data: '"two"', turnId: 'turn_2' }],
            observations: [{ type: 'thoughts', data: '"\u0000"' }],
          }),
        ),
      ).rejects.toThrow();
      expect(await read()).toEqual(before);
      const next = await store.commit(
        commitOf('t1', 1, {
          history: [{ kind: 'message', data: '"two"', turnId: 'turn_2' }],
          observations: [{ type: 'thoughts', data: '{}' }],
        }),
      );
      expect(next).toEqual({
        version: 2,
        historySeqs: [2],
        observationIds: [(first.observationIds[0] ?? 0) + 1],
      });
    } finally {
      await store.close();
    }
  });
});
