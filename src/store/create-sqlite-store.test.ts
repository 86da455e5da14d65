import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { SnapshotError, VersionConflictError } from '../errors/index.js';
import type { StateStore } from '../spec/index.js';
import { describeStoreConformance } from '../test/store-conformance.js';
import { createSqliteStore, type SqliteStore } from './create-sqlite-store.js';
import { decodeSnapshot } from './decode-snapshot.js';
import { StoreError } from './store-error.js';

const directory = mkdtempSync(join(tmpdir(), 'flowstack-sqlite-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

let files = 0;
const newPath = () => join(directory, `store-${++files}.db`);
const repositoryRoot = fileURLToPath(new URL('../..', import.meta.url));

describeStoreConformance('sqlite store conformance (file)', () => createSqliteStore({ path: newPath() }), {
  describe,
  it,
  reopen: async (store) => {
    await store.close();
    return createSqliteStore({ path: (store as SqliteStore).path });
  },
});

describeStoreConformance(
  'sqlite store conformance (:memory:)',
  () => createSqliteStore({ path: ':memory:' }),
  {
    describe,
    it,
  },
);

/** Runs `body` in a new Node process that has the store loaded; returns what it prints as JSON. */
async function runInChild(path: string, body: string): Promise<unknown> {
  const script = join(directory, `child-${++files}.mjs`);
  const storeModule = pathToFileURL(join(repositoryRoot, 'src/store/index.ts')).href;
  writeFileSync(
    script,
    `import { createSqliteStore } from ${JSON.stringify(storeModule)};
const store = createSqliteStore({ path: ${JSON.stringify(path)} });
const output = await (async () => { ${body} })();
await store.close();
process.stdout.write(JSON.stringify(output));`,
  );
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script], {
    cwd: repositoryRoot,
  });
  return JSON.parse(stdout);
}

describe('createSqliteStore', () => {
  it('is read and written by a new process on the same file', async () => {
    const path = newPath();
    const store = createSqliteStore({ path });
    await store.commit({
      threadId: 't1',
      expectedVersion: 0,
      data: '{"from":"parent"}',
      history: [{ kind: 'message', data: '"hi"', turnId: 'turn_1' }],
      observations: [{ type: 'thoughts', data: '{}' }],
      now: 1,
    });
    await store.close();

    const seen = await runInChild(
      path,
      `const thread = await store.loadThread('t1');
       const history = await store.readHistory('t1');
       const result = await store.commit({ threadId: 't1', expectedVersion: thread.version, data: '{"from":"child"}',
         history: [{ kind: 'message', data: '"hello"', turnId: 'turn_2' }], now: 2 });
       return { data: thread.data, seqs: history.map((entry) => entry.seq), result };`,
    );
    expect(seen).toEqual({
      data: '{"from":"parent"}',
      seqs: [1],
      result: { version: 2, historySeqs: [2], observationIds: [] },
    });

    const reopened = createSqliteStore({ path });
    expect(await reopened.loadThread('t1')).toMatchObject({ version: 2, data: '{"from":"child"}' });
    expect((await reopened.readHistory('t1')).map((entry) => entry.data)).toEqual(['"hi"', '"hello"']);
    await reopened.close();
  });

  it('lets exactly one of several processes commit the same version', async () => {
    const path = newPath();
    const store = createSqliteStore({ path });
    await store.commit({ threadId: 'race', expectedVersion: 0, data: '{}', now: 1 });
    const outcomes = await Promise.all(
      [1, 2, 3, 4].map((writer) =>
        runInChild(
          path,
          `try {
             await store.commit({ threadId: 'race', expectedVersion: 1, data: '{"writer":${writer}}',
               observations: [{ type: 'thoughts', data: '{}' }], now: 2 });
             return 'won';
           } catch (error) { return error.code; }`,
        ),
      ),
    );
    expect(outcomes.filter((outcome) => outcome === 'won')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === 'version_conflict')).toHaveLength(3);
    expect(await store.loadThread('race')).toMatchObject({ version: 2 });
    expect(await store.readObservations('race')).toHaveLength(1);
    await store.close();
  }, 60_000);

  it('keeps version conflicts correct between two connections to one file', async () => {
    const path = newPath();
    const first = createSqliteStore({ path });
    const second = createSqliteStore({ path });
    await first.commit({ threadId: 't1', expectedVersion: 0, data: '{"n":1}', now: 1 });
    const seenBySecond = await second.loadThread('t1');
    await first.commit({ threadId: 't1', expectedVersion: 1, data: '{"n":2}', now: 2 });
    const stale = second.commit({
      threadId: 't1',
      expectedVersion: seenBySecond?.version ?? 0,
      data: '{"n":"x"}',
      now: 3,
    });
    await expect(stale).rejects.toBeInstanceOf(VersionConflictError);
    await expect(stale).rejects.toMatchObject({ expectedVersion: 1, actualVersion: 2 });
    expect(
      await second.commit({ threadId: 't1', expectedVersion: 2, data: '{"n":3}', now: 4 }),
    ).toMatchObject({
      version: 3,
    });
    expect(await first.loadThread('t1')).toMatchObject({ version: 3, data: '{"n":3}' });
    expect(await second.acquireLease({ threadId: 't1', owner: 'w2', ttlMs: 100, now: 5 })).toBe(true);
    expect(await first.acquireLease({ threadId: 't1', owner: 'w1', ttlMs: 100, now: 6 })).toBe(false);
    await Promise.all([first.close(), second.close()]);
  });

  it('rolls back the whole commit when a row fails inside the transaction', async () => {
    const path = newPath();
    const store = createSqliteStore({ path });
    await store.commit({ threadId: 't1', expectedVersion: 0, data: '{"n":1}', now: 1 });
    const raw = new Database(path);
    raw.exec(`CREATE TRIGGER refuse AFTER INSERT ON observations WHEN new.type = 'boom'
              BEGIN SELECT RAISE(ABORT, 'refused'); END`);
    raw.close();
    await expect(
      store.commit({
        threadId: 't1',
        expectedVersion: 1,
        data: '{"n":2}',
        history: [{ kind: 'message', data: '"lost"', turnId: 'turn_2' }],
        observations: [
          { type: 'fine', data: '{}' },
          { type: 'boom', data: '{}' },
        ],
        now: 2,
      }),
    ).rejects.toThrow('refused');
    expect(await store.loadThread('t1')).toMatchObject({ version: 1, data: '{"n":1}', updatedAt: 1 });
    expect(await store.readHistory('t1')).toEqual([]);
    expect(await store.readObservations('t1')).toEqual([]);
    expect(
      await store.commit({
        threadId: 't1',
        expectedVersion: 1,
        data: '{}',
        history: [{ kind: 'frame', data: '{}', turnId: 't' }],
        now: 3,
      }),
    ).toMatchObject({
      version: 2,
      historySeqs: [1],
    });
    await store.close();
  });

  it.each([
    ['corrupt', '{"schemaVersion": 1, "threadId": "t1", '],
    ['future_version', '{"schemaVersion": 99, "threadId": "t1", "from": "the future"}'],
  ] as const)(
    'loads a %s snapshot as text, fails to decode it, and leaves the row unchanged',
    async (reason, garbage) => {
      const path = newPath();
      const store = createSqliteStore({ path });
      await store.commit({ threadId: 't1', expectedVersion: 0, data: '{}', now: 1 });
      const raw = new Database(path);
      raw.prepare('UPDATE threads SET data = ? WHERE thread_id = ?').run(garbage, 't1');
      const rowBefore = raw.prepare('SELECT * FROM threads').all();

      const stored = await store.loadThread('t1');
      expect(stored?.data).toBe(garbage);
      let error: unknown;
      try {
        decodeSnapshot('t1', stored?.data ?? '');
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(SnapshotError);
      expect(error).toMatchObject({ reason, threadId: 't1' });
      expect(raw.prepare('SELECT * FROM threads').all()).toEqual(rowBefore);
      raw.close();
      await store.close();
    },
  );

  it('refuses to open a database with a newer store schema, and leaves it untouched', async () => {
    const path = newPath();
    await createSqliteStore({ path }).close();
    const raw = new Database(path);
    raw.prepare("UPDATE meta SET value = '99' WHERE key = 'schema_version'").run();
    const tablesBefore = raw.prepare('SELECT name, sql FROM sqlite_master ORDER BY name').all();
    expect(() => createSqliteStore({ path })).toThrow(StoreError);
    expect(() => createSqliteStore({ path })).toThrow(/store schema version '99'.*newer flowstack/);
    expect(raw.prepare('SELECT value FROM meta').pluck().get()).toBe('99');
    expect(raw.prepare('SELECT name, sql FROM sqlite_master ORDER BY name').all()).toEqual(tablesBefore);
    raw.close();
  });

  it('upgrades a version 1 database: adds the schedules and A2A task tables, keeps the threads', async () => {
    const path = newPath();
    const first = createSqliteStore({ path });
    await first.commit({ threadId: 't1', expectedVersion: 0, data: '{}', now: 1 });
    await first.close();
    const raw = new Database(path);
    raw.exec('DROP TABLE schedules; DROP TABLE a2a_tasks');
    raw.prepare("UPDATE meta SET value = '1' WHERE key = 'schema_version'").run();
    raw.close();
    const store = createSqliteStore({ path });
    expect((await store.loadThread('t1'))?.version).toBe(1);
    expect(await store.listSchedules?.()).toEqual([]);
    expect(await store.listA2ATasks?.({ scope: 'alice' })).toEqual([]);
    await store.close();
    const after = new Database(path, { readonly: true });
    expect(after.prepare("SELECT value FROM meta WHERE key = 'schema_version'").pluck().get()).toBe('3');
    after.close();
  });

  it('creates the default file under .flowstack in the working directory, in WAL mode', async () => {
    const workingDirectory = mkdtempSync(join(directory, 'cwd-'));
    const previous = process.cwd();
    process.chdir(workingDirectory);
    let store: StateStore | undefined;
    try {
      store = createSqliteStore();
      await store.commit({ threadId: 't1', expectedVersion: 0, data: '{}', now: 1 });
    } finally {
      await store?.close();
      process.chdir(previous);
    }
    const file = join(workingDirectory, '.flowstack/flowstack.db');
    expect(existsSync(file)).toBe(true);
    const raw = new Database(file);
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    raw.close();
  });

  it("accepts synchronous: 'full' and keeps working", async () => {
    const store = createSqliteStore({ path: newPath(), synchronous: 'full' });
    expect(await store.commit({ threadId: 't1', expectedVersion: 0, data: '{}', now: 1 })).toMatchObject({
      version: 1,
    });
    await store.close();
  });
});

describe('createSqliteStore opened by several processes at once', () => {
  it('opens a new file while another process is creating it, instead of failing with "database is locked"', async () => {
    const path = newPath();
    // Another process holds the new file's write lock (as while it creates the tables) for a moment.
    const holder = join(directory, `holder-${++files}.mjs`);
    const driver = pathToFileURL(join(repositoryRoot, 'node_modules/better-sqlite3/lib/index.js')).href;
    writeFileSync(
      holder,
      `import Database from ${JSON.stringify(driver)};
const db = new Database(${JSON.stringify(path)});
db.exec('BEGIN IMMEDIATE');
db.exec('CREATE TABLE IF NOT EXISTS other (a)');
process.stdout.write('held\\n');
setTimeout(() => { db.exec('COMMIT'); db.close(); }, 400);`,
    );
    const child = execFile(process.execPath, [holder]);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await new Promise((resolve) => child.stdout?.once('data', resolve));
    // Switching to WAL needs the lock this connection cannot wait for (SQLite answers at once); the
    // store tries again until the busy timeout, so it opens once the other process is done.
    const store = createSqliteStore({ path });
    await store.commit({ threadId: 't1', expectedVersion: 0, data: '{}', now: 1 });
    expect(await store.loadThread('t1')).toMatchObject({ version: 1 });
    await store.close();
    await exited;
  });

  it('opens the same new file from two processes at the same moment without "database is locked"', async () => {
    const files = Array.from({ length: 20 }, () => newPath());
    // Both processes open file i at the same wall-clock moment, once they are both loaded.
    const startAt = Date.now() + 4_000;
    const body = `const paths = ${JSON.stringify(files)};
       const failures = [];
       for (const [index, path] of paths.entries()) {
         const at = ${startAt} + index * 60;
         // Sleep to just before the moment, then wait it out exactly, so both processes start together.
         await new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now() - 3)));
         while (Date.now() < at) {}
         try {
           const opened = createSqliteStore({ path });
           await opened.commit({ threadId: 'p' + process.pid, expectedVersion: 0, data: '{}', now: 1 });
           await opened.close();
         } catch (error) { failures.push(String(error.message)); }
       }
       return failures;`;
    const outcomes = await Promise.all([runInChild(':memory:', body), runInChild(':memory:', body)]);
    expect(outcomes).toEqual([[], []]);
    for (const path of files) {
      const store = createSqliteStore({ path });
      expect((await store.listThreads()).length).toBe(2);
      await store.close();
    }
  }, 60_000);
});
