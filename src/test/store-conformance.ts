/**
 * The conformance suite every `StateStore` must pass (DESIGN.md §6): memory, SQLite, PostgreSQL and any
 * store a user writes. It uses `node:assert/strict`, not a test runner, so it runs under vitest, node:test,
 * jest or mocha alike; `describeStoreConformance` registers the cases with whichever runner's `describe`
 * and `it` it is given.
 *
 * This file is longer than 400 lines on purpose: it is one list of small, independent cases, and reading
 * the whole contract in one place is what a store author needs.
 */
import assert from 'node:assert/strict';
import { FlowstackError } from '../errors/index.js';
import {
  type AuditDraft,
  deletedThreadMark,
  type HistoryDraft,
  type JournalEntry,
  type ScheduleEntry,
  type StateStore,
  type ThreadCommit,
} from '../spec/index.js';

/** What a case may do besides using the store it is given. */
export interface StoreConformanceContext {
  /**
   * Closes `store` and opens the same data again (a new connection, as after a restart). Present only
   * when the store persists and the suite was given `reopen`.
   */
  reopen?: (store: StateStore) => Promise<StateStore>;
}

/** One conformance case: a name and a body that throws (an `AssertionError`) when the store is wrong. */
export interface StoreConformanceCase {
  name: string;
  /** `'reopen'`: the case needs `context.reopen` and is skipped for stores that cannot reopen. */
  requires?: 'reopen';
  run(store: StateStore, context: StoreConformanceContext): Promise<void>;
}

/** Options of {@link describeStoreConformance} and {@link runStoreConformanceCase}. */
export interface StoreConformanceOptions {
  /** Closes the store and opens the same data again; give it for stores that persist (files, servers). */
  reopen?: (store: StateStore) => Promise<StateStore> | StateStore;
}

/** The two functions of a test runner the suite needs (vitest, node:test, jest and mocha all have them). */
export interface StoreConformanceRunner {
  describe(name: string, body: () => void): unknown;
  it(name: string, body: () => Promise<void>): unknown;
}

const t0 = 1_700_000_000_000;

function change(threadId: string, expectedVersion: number, rest: Partial<ThreadCommit> = {}): ThreadCommit {
  return {
    threadId,
    expectedVersion,
    data: `{"v":${expectedVersion + 1}}`,
    now: t0 + expectedVersion,
    ...rest,
  };
}

function historyDraft(text: string, turnId = 'turn_1') {
  return { kind: 'message' as const, data: JSON.stringify({ text }), turnId };
}

function journalEntry(threadId: string, callId: string, startedAt = t0): JournalEntry {
  return {
    key: `${threadId}:${callId}`,
    threadId,
    callId,
    toolName: 'send_email',
    argsHash: `hash_${callId}`,
    idempotent: false,
    status: 'started',
    startedAt,
  };
}

function auditDraft(threadId: string, createdAt: number): AuditDraft {
  return {
    threadId,
    callId: `call_${createdAt}`,
    toolName: 'send_email',
    capability: 'controlled',
    principal: 'alice',
    inputSummary: '{"to":"bob@example.com"}',
    status: 'started',
    createdAt,
  };
}

/** Asserts that `promise` rejects with a version conflict carrying both versions. */
async function assertConflict(
  promise: Promise<unknown>,
  expected: { threadId: string; expectedVersion: number; actualVersion: number },
): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(FlowstackError.isInstance(error), 'a FlowstackError');
    assert.equal(error.code, 'version_conflict');
    const fields = error as FlowstackError & Record<string, unknown>;
    assert.equal(fields.threadId, expected.threadId);
    assert.equal(fields.expectedVersion, expected.expectedVersion);
    assert.equal(fields.actualVersion, expected.actualVersion);
    return true;
  });
}

/** Everything a thread holds, to show that a failed call changed none of it. */
async function readAll(store: StateStore, threadId: string) {
  return {
    thread: await store.loadThread(threadId),
    history: await store.readHistory(threadId),
    observations: await store.readObservations(threadId),
  };
}

/** The cases, in the order they are best read. Each gets a fresh, empty store. */
export const storeConformanceCases: readonly StoreConformanceCase[] = [
  {
    name: 'an unknown thread loads as undefined and has no rows',
    async run(store) {
      assert.equal(await store.loadThread('missing'), undefined);
      assert.deepEqual(await store.readHistory('missing'), []);
      assert.deepEqual(await store.readObservations('missing'), []);
      assert.deepEqual(await store.listJournal('missing'), []);
      assert.deepEqual(await store.listThreads(), []);
    },
  },
  {
    name: 'a created thread loads back byte-exact',
    async run(store) {
      const data = '{ "b": 1,\n  "a": [1, 2.50, "x"] , "z": {} }';
      const result = await store.commit({
        threadId: 't1',
        expectedVersion: 0,
        data,
        principal: 'alice',
        now: t0,
      });
      assert.deepEqual(result, { version: 1, historySeqs: [], observationIds: [] });
      assert.deepEqual(await store.loadThread('t1'), {
        threadId: 't1',
        version: 1,
        data,
        principal: 'alice',
        createdAt: t0,
        updatedAt: t0,
      });
    },
  },
  {
    name: 'each commit increments the version by one and keeps createdAt',
    async run(store) {
      for (let version = 0; version < 3; version++) {
        const result = await store.commit(change('t1', version, { now: t0 + version * 10 }));
        assert.equal(result.version, version + 1);
      }
      const thread = await store.loadThread('t1');
      assert.equal(thread?.version, 3);
      assert.equal(thread?.data, '{"v":3}');
      assert.equal(thread?.createdAt, t0);
      assert.equal(thread?.updatedAt, t0 + 20);
      assert.equal(thread?.principal, undefined);
    },
  },
  {
    name: 'a stale expectedVersion conflicts with both versions and writes nothing',
    async run(store) {
      await store.commit(
        change('t1', 0, { history: [historyDraft('one')], observations: [{ type: 'a', data: '{}' }] }),
      );
      await store.commit(change('t1', 1));
      const before = await readAll(store, 't1');
      await assertConflict(
        store.commit(
          change('t1', 1, {
            data: '{"stale":true}',
            history: [historyDraft('lost')],
            observations: [{ type: 'lost', data: '{}' }],
            now: t0 + 99,
          }),
        ),
        { threadId: 't1', expectedVersion: 1, actualVersion: 2 },
      );
      assert.deepEqual(await readAll(store, 't1'), before);
      const next = await store.commit(change('t1', 2, { history: [historyDraft('two')] }));
      assert.deepEqual(next.historySeqs, [2], 'the rejected history took no seq');
    },
  },
  {
    name: 'expectedVersion 0 on an existing thread conflicts',
    async run(store) {
      await store.commit(change('t1', 0));
      await assertConflict(store.commit(change('t1', 0, { data: '{"again":true}' })), {
        threadId: 't1',
        expectedVersion: 0,
        actualVersion: 1,
      });
      assert.equal((await store.loadThread('t1'))?.data, '{"v":1}');
    },
  },
  {
    name: 'a positive expectedVersion on an unknown thread conflicts and creates nothing',
    async run(store) {
      await assertConflict(store.commit(change('t1', 3)), {
        threadId: 't1',
        expectedVersion: 3,
        actualVersion: 0,
      });
      assert.equal(await store.loadThread('t1'), undefined);
      assert.deepEqual(await store.listThreads(), []);
    },
  },
  {
    name: 'history seqs run 1..n per thread, independently of other threads',
    async run(store) {
      const a1 = await store.commit(change('a', 0, { history: [historyDraft('a1'), historyDraft('a2')] }));
      const b1 = await store.commit(change('b', 0, { history: [historyDraft('b1')] }));
      const a2 = await store.commit(change('a', 1, { history: [historyDraft('a3', 'turn_2')], now: t0 + 5 }));
      const a3 = await store.commit(change('a', 2));
      assert.deepEqual(
        [a1.historySeqs, b1.historySeqs, a2.historySeqs, a3.historySeqs],
        [[1, 2], [1], [3], []],
      );
      const history = await store.readHistory('a');
      assert.deepEqual(
        history.map((entry) => entry.seq),
        [1, 2, 3],
      );
      assert.deepEqual(history[2], {
        threadId: 'a',
        seq: 3,
        kind: 'message',
        data: '{"text":"a3"}',
        turnId: 'turn_2',
        createdAt: t0 + 5,
      });
      assert.deepEqual(
        (await store.readHistory('b')).map((entry) => entry.data),
        ['{"text":"b1"}'],
      );
    },
  },
  {
    name: 'readHistory honours afterSeq and limit',
    async run(store) {
      const drafts = ['1', '2', '3', '4', '5'].map((text) => historyDraft(text));
      await store.commit(change('t1', 0, { history: drafts }));
      const seqs = async (options: { afterSeq?: number; limit?: number }) =>
        (await store.readHistory('t1', options)).map((entry) => entry.seq);
      assert.deepEqual(await seqs({ afterSeq: 2 }), [3, 4, 5]);
      assert.deepEqual(await seqs({ limit: 2 }), [1, 2]);
      assert.deepEqual(await seqs({ afterSeq: 1, limit: 3 }), [2, 3, 4]);
      assert.deepEqual(await seqs({ afterSeq: 5 }), []);
      assert.deepEqual(await seqs({ limit: 0 }), []);
    },
  },
  {
    name: 'observation ids increase strictly across threads, in commit order',
    async run(store) {
      const ids: number[] = [];
      for (let round = 0; round < 3; round++) {
        for (const threadId of ['a', 'b']) {
          const result = await store.commit(
            change(threadId, round, {
              observations: [
                { type: 'thoughts', data: `{"n":${round}}` },
                { type: 'final-response', data: '{}' },
              ],
            }),
          );
          ids.push(...result.observationIds);
        }
      }
      assert.equal(ids.length, 12);
      for (let index = 1; index < ids.length; index++) {
        assert.ok((ids[index] ?? 0) > (ids[index - 1] ?? 0), `id ${ids[index]} follows ${ids[index - 1]}`);
      }
      const rowsOfA = await store.readObservations('a');
      assert.deepEqual(
        rowsOfA.map((row) => row.id),
        [ids[0], ids[1], ids[4], ids[5], ids[8], ids[9]],
      );
      assert.deepEqual(rowsOfA[0], {
        id: ids[0],
        threadId: 'a',
        type: 'thoughts',
        data: '{"n":0}',
        createdAt: t0,
      });
    },
  },
  {
    name: 'readObservations after an id replays exactly the later ones',
    async run(store) {
      const first = await store.commit(
        change('t1', 0, { observations: [1, 2, 3].map((n) => ({ type: 'thoughts', data: `{"n":${n}}` })) }),
      );
      await store.commit(change('other', 0, { observations: [{ type: 'thoughts', data: '{}' }] }));
      const second = await store.commit(
        change('t1', 1, { observations: [4, 5].map((n) => ({ type: 'thoughts', data: `{"n":${n}}` })) }),
      );
      const lastSeen = first.observationIds[1] ?? 0;
      const replay = await store.readObservations('t1', { afterId: lastSeen });
      assert.deepEqual(
        replay.map((row) => row.id),
        [first.observationIds[2], ...second.observationIds],
      );
      const page = await store.readObservations('t1', { afterId: lastSeen, limit: 2 });
      assert.deepEqual(
        page.map((row) => row.data),
        ['{"n":3}', '{"n":4}'],
      );
      assert.deepEqual(await store.readObservations('t1', { afterId: second.observationIds[1] }), []);
    },
  },
  {
    name: 'a rejected commit appends nothing: snapshot, history and observations go together (outbox)',
    async run(store) {
      await store.commit(
        change('t1', 0, { history: [historyDraft('kept')], observations: [{ type: 'a', data: '{}' }] }),
      );
      const before = await readAll(store, 't1');
      // Malformed rows that the type system would catch, as a JavaScript caller could still send them.
      const badHistory = { kind: 'message', data: undefined, turnId: 'turn_1' } as unknown as HistoryDraft;
      const badObservation = { type: 'bad' } as unknown as { type: string; data: string };
      await assert.rejects(
        store.commit(
          change('t1', 1, {
            history: [historyDraft('first of batch'), badHistory],
            observations: [{ type: 'lost', data: '{}' }],
          }),
        ),
      );
      await assert.rejects(
        store.commit(change('t1', 1, { observations: [{ type: 'ok', data: '{}' }, badObservation] })),
      );
      await assert.rejects(store.commit(change('new', 0, { history: [badHistory] })));
      assert.deepEqual(await readAll(store, 't1'), before);
      assert.equal(await store.loadThread('new'), undefined);
    },
  },
  {
    name: 'a commit without a principal keeps the thread principal',
    async run(store) {
      await store.commit(change('t1', 0, { principal: 'alice' }));
      await store.commit(change('t1', 1));
      assert.equal((await store.loadThread('t1'))?.principal, 'alice');
      assert.deepEqual(
        (await store.listThreads({ principal: 'alice' })).map((thread) => thread.threadId),
        ['t1'],
      );
    },
  },
  {
    name: 'listThreads orders by updatedAt, newest first, and honours limit',
    async run(store) {
      await store.commit(change('old', 0, { now: t0 + 1 }));
      await store.commit(change('new', 0, { now: t0 + 3 }));
      await store.commit(change('mid', 0, { now: t0 + 2 }));
      await store.commit(change('old', 1, { now: t0 + 4 }));
      const all = await store.listThreads();
      assert.deepEqual(
        all.map((thread) => thread.threadId),
        ['old', 'new', 'mid'],
      );
      assert.deepEqual(all[0], { threadId: 'old', version: 2, createdAt: t0 + 1, updatedAt: t0 + 4 });
      assert.equal('data' in (all[0] ?? {}), false, 'a summary carries no snapshot');
      assert.deepEqual(
        (await store.listThreads({ limit: 2 })).map((thread) => thread.threadId),
        ['old', 'new'],
      );
    },
  },
  {
    name: 'listThreads filters by principal',
    async run(store) {
      await store.commit(change('a1', 0, { principal: 'alice', now: t0 + 1 }));
      await store.commit(change('b1', 0, { principal: 'bob', now: t0 + 2 }));
      await store.commit(change('a2', 0, { principal: 'alice', now: t0 + 3 }));
      await store.commit(change('n1', 0, { now: t0 + 4 }));
      const ofAlice = await store.listThreads({ principal: 'alice' });
      assert.deepEqual(
        ofAlice.map((thread) => [thread.threadId, thread.principal]),
        [
          ['a2', 'alice'],
          ['a1', 'alice'],
        ],
      );
      assert.deepEqual(
        (await store.listThreads({ principal: 'alice', limit: 1 })).map((thread) => thread.threadId),
        ['a2'],
      );
      assert.deepEqual(await store.listThreads({ principal: 'carol' }), []);
      assert.equal((await store.listThreads()).length, 4);
    },
  },
  {
    name: 'a lease is taken when free and extended by its owner',
    async run(store) {
      assert.equal(await store.acquireLease({ threadId: 't1', owner: 'w1', ttlMs: 1000, now: t0 }), true);
      assert.equal(
        await store.acquireLease({ threadId: 't1', owner: 'w1', ttlMs: 1000, now: t0 + 900 }),
        true,
      );
      // Extended to t0 + 1900: still held at t0 + 1500, where the first lease would have expired.
      assert.equal(
        await store.acquireLease({ threadId: 't1', owner: 'w2', ttlMs: 1000, now: t0 + 1500 }),
        false,
      );
    },
  },
  {
    name: 'another owner is refused until the lease expires (at acquire time + ttlMs)',
    async run(store) {
      assert.equal(await store.acquireLease({ threadId: 't1', owner: 'w1', ttlMs: 1000, now: t0 }), true);
      assert.equal(
        await store.acquireLease({ threadId: 't1', owner: 'w2', ttlMs: 1000, now: t0 + 999 }),
        false,
      );
      assert.equal(
        await store.acquireLease({ threadId: 't1', owner: 'w2', ttlMs: 1000, now: t0 + 1000 }),
        true,
      );
      assert.equal(
        await store.acquireLease({ threadId: 't1', owner: 'w1', ttlMs: 1000, now: t0 + 1001 }),
        false,
      );
    },
  },
  {
    name: 'releaseLease by a non-owner is ignored; by the owner it frees the thread',
    async run(store) {
      await store.acquireLease({ threadId: 't1', owner: 'w1', ttlMs: 60_000, now: t0 });
      await store.releaseLease({ threadId: 't1', owner: 'w2' });
      assert.equal(
        await store.acquireLease({ threadId: 't1', owner: 'w2', ttlMs: 1000, now: t0 + 1 }),
        false,
      );
      await store.releaseLease({ threadId: 't1', owner: 'w1' });
      assert.equal(await store.acquireLease({ threadId: 't1', owner: 'w2', ttlMs: 1000, now: t0 + 2 }), true);
      await store.releaseLease({ threadId: 'never-leased', owner: 'w1' });
    },
  },
  {
    name: 'leases of different threads are independent',
    async run(store) {
      assert.equal(await store.acquireLease({ threadId: 'a', owner: 'w1', ttlMs: 1000, now: t0 }), true);
      assert.equal(await store.acquireLease({ threadId: 'b', owner: 'w2', ttlMs: 1000, now: t0 }), true);
      await store.releaseLease({ threadId: 'b', owner: 'w2' });
      assert.equal(await store.acquireLease({ threadId: 'a', owner: 'w2', ttlMs: 1000, now: t0 + 1 }), false);
    },
  },
  {
    name: 'journalStart is idempotent: a second start returns the first entry unchanged',
    async run(store) {
      const entry = journalEntry('t1', 'call_1');
      assert.deepEqual(await store.journalStart(entry), entry);
      const again = await store.journalStart({
        ...entry,
        argsHash: 'other',
        idempotent: true,
        startedAt: t0 + 50,
      });
      assert.deepEqual(again, entry);
      assert.deepEqual(await store.readJournal(entry.key), entry);
      assert.equal((await store.listJournal('t1')).length, 1);
    },
  },
  {
    name: 'journalFinish records the outcome, and a later start returns the finished entry',
    async run(store) {
      const entry = journalEntry('t1', 'call_1');
      await store.journalStart(entry);
      await store.journalFinish({
        key: entry.key,
        status: 'succeeded',
        result: '{"sent":true}',
        finishedAt: t0 + 7,
      });
      const finished = { ...entry, status: 'succeeded', result: '{"sent":true}', finishedAt: t0 + 7 };
      assert.deepEqual(await store.readJournal(entry.key), finished);
      assert.deepEqual(await store.journalStart(entry), finished, 'a resumed call sees the recorded result');
      const failing = journalEntry('t1', 'call_2', t0 + 1);
      await store.journalStart({ ...failing, idempotent: true });
      await store.journalFinish({
        key: failing.key,
        status: 'failed',
        result: '{"error":"timeout"}',
        finishedAt: t0 + 9,
      });
      assert.equal((await store.readJournal(failing.key))?.status, 'failed');
      assert.equal((await store.readJournal(failing.key))?.idempotent, true);
    },
  },
  {
    name: 'journalRecord (when the store has it) writes a finished entry whole, and never over an existing one',
    async run(store) {
      if (!store.journalRecord) return;
      const entry = {
        ...journalEntry('t1', 'model#0'),
        status: 'succeeded' as const,
        finishedAt: t0 + 3,
        result: '{"text":"hi"}',
      };
      assert.deepEqual(await store.journalRecord(entry), entry);
      assert.deepEqual(await store.readJournal(entry.key), entry);
      assert.deepEqual(
        await store.journalStart(journalEntry('t1', 'model#0')),
        entry,
        'a start sees it finished',
      );
      const again = await store.journalRecord({ ...entry, result: '{"text":"other"}', finishedAt: t0 + 9 });
      assert.deepEqual(again, entry, 'the first record is kept');
      const started = journalEntry('t1', 'call_1', t0 + 1);
      await store.journalStart(started);
      assert.deepEqual(
        await store.journalRecord({ ...started, status: 'failed', finishedAt: t0 + 4, result: '{}' }),
        started,
      );
      assert.deepEqual(
        (await store.listJournal('t1')).map((e) => [e.callId, e.status]),
        [
          ['model#0', 'succeeded'],
          ['call_1', 'started'],
        ],
      );
    },
  },
  {
    name: 'journalFinish of an unknown key rejects and creates nothing',
    async run(store) {
      await assert.rejects(
        store.journalFinish({ key: 't1:nope', status: 'succeeded', result: '{}', finishedAt: t0 }),
      );
      assert.equal(await store.readJournal('t1:nope'), undefined);
    },
  },
  {
    name: 'readJournal of an unknown key is undefined; listJournal lists one thread in start order',
    async run(store) {
      assert.equal(await store.readJournal('missing'), undefined);
      await store.journalStart(journalEntry('t1', 'late', t0 + 20));
      await store.journalStart(journalEntry('t2', 'other', t0 + 5));
      await store.journalStart(journalEntry('t1', 'early', t0 + 10));
      await store.journalStart(journalEntry('t1', 'tie', t0 + 20));
      assert.deepEqual(
        (await store.listJournal('t1')).map((entry) => entry.callId),
        ['early', 'late', 'tie'],
      );
    },
  },
  {
    name: 'listJournal with a keyPrefix lists only the entries of that prefix (one turn), in start order',
    async run(store) {
      await store.journalStart(journalEntry('t1', 'turnA:late', t0 + 20));
      await store.journalStart(journalEntry('t1', 'turnA:early', t0 + 10));
      await store.journalStart(journalEntry('t1', 'turnB:other', t0 + 15));
      await store.journalStart(journalEntry('t1', 'turnA', t0 + 12));
      await store.journalStart(journalEntry('t10', 'turnA:x', t0 + 11));
      await store.journalStart(journalEntry('t2', 'turnA:y', t0 + 11));
      assert.deepEqual(
        (await store.listJournal('t1', { keyPrefix: 't1:turnA:' })).map((entry) => entry.callId),
        ['turnA:early', 'turnA:late'],
      );
      assert.deepEqual(await store.listJournal('t1', { keyPrefix: 't1:none:' }), []);
      assert.equal((await store.listJournal('t1', { keyPrefix: '' })).length, 4);
    },
  },
  {
    name: 'appendAudit returns increasing ids and completeAudit fills in the outcome',
    async run(store) {
      const first = await store.appendAudit(auditDraft('t1', t0));
      const second = await store.appendAudit({ ...auditDraft('t2', t0 + 1), risk: 'low' });
      assert.ok(second > first);
      await store.completeAudit({
        id: first,
        status: 'succeeded',
        outputSummary: '{"ok":true}',
        durationMs: 42,
      });
      const [newest, oldest] = await store.readAudit();
      assert.deepEqual(oldest, {
        ...auditDraft('t1', t0),
        id: first,
        status: 'succeeded',
        outputSummary: '{"ok":true}',
        durationMs: 42,
      });
      assert.deepEqual(newest, { ...auditDraft('t2', t0 + 1), id: second, risk: 'low' });
      await assert.rejects(
        store.completeAudit({ id: second + 1000, status: 'failed', outputSummary: '', durationMs: 1 }),
      );
    },
  },
  {
    name: 'readAudit is newest first, filtered by thread and limited',
    async run(store) {
      const ids: number[] = [];
      for (let index = 0; index < 5; index++) {
        ids.push(await store.appendAudit(auditDraft(index % 2 === 0 ? 't1' : 't2', t0 + index)));
      }
      const ofT1 = await store.readAudit({ threadId: 't1' });
      assert.deepEqual(
        ofT1.map((record) => record.id),
        [ids[4], ids[2], ids[0]],
      );
      assert.deepEqual(
        (await store.readAudit({ threadId: 't1', limit: 2 })).map((record) => record.id),
        [ids[4], ids[2]],
      );
      assert.deepEqual(
        (await store.readAudit({ limit: 3 })).map((record) => record.id),
        [ids[4], ids[3], ids[2]],
      );
      assert.deepEqual(await store.readAudit({ threadId: 'none' }), []);
    },
  },
  {
    name: 'ten concurrent commits with the same expectedVersion: exactly one wins',
    async run(store) {
      await store.commit(change('t1', 0));
      const attempts = Array.from({ length: 10 }, (_, index) =>
        store.commit(
          change('t1', 1, {
            data: `{"writer":${index}}`,
            history: [historyDraft(`writer ${index}`)],
            observations: [{ type: 'thoughts', data: `{"writer":${index}}` }],
          }),
        ),
      );
      const settled = await Promise.allSettled(attempts);
      const won = settled.flatMap((outcome, index) => (outcome.status === 'fulfilled' ? [index] : []));
      assert.equal(won.length, 1);
      for (const outcome of settled) {
        if (outcome.status === 'rejected') {
          assert.ok(FlowstackError.isInstance(outcome.reason) && outcome.reason.code === 'version_conflict');
        }
      }
      const winner = won[0];
      assert.equal((await store.loadThread('t1'))?.data, `{"writer":${winner}}`);
      assert.deepEqual(
        (await store.readHistory('t1')).map((entry) => entry.data),
        [JSON.stringify({ text: `writer ${winner}` })],
      );
      assert.equal((await store.readObservations('t1')).length, 1);
    },
  },
  {
    name: 'concurrent creates of one thread: exactly one wins',
    async run(store) {
      const settled = await Promise.allSettled(
        Array.from({ length: 5 }, (_, index) =>
          store.commit(change('t1', 0, { data: `{"creator":${index}}` })),
        ),
      );
      assert.equal(settled.filter((outcome) => outcome.status === 'fulfilled').length, 1);
      assert.equal((await store.loadThread('t1'))?.version, 1);
    },
  },
  {
    name: 'a 1 MB snapshot round-trips exactly',
    async run(store) {
      const data = JSON.stringify({ blob: 'x'.repeat(1024 * 1024), tail: [1, 2, 3] });
      await store.commit({ threadId: 'big', expectedVersion: 0, data, now: t0 });
      const loaded = await store.loadThread('big');
      assert.equal(loaded?.data.length, data.length);
      assert.equal(loaded?.data, data);
    },
  },
  {
    name: 'unicode round-trips in ids, snapshots, history and observations',
    async run(store) {
      const text = 'Grüße, 世界! مرحبا 👩🏽‍💻 e\u0301 \u2028 "quoted" \\ back';
      const threadId = `thread-🧵-${text.slice(0, 6)}`;
      const data = JSON.stringify({ text });
      await store.commit({
        threadId,
        expectedVersion: 0,
        data,
        principal: 'ユーザー',
        history: [{ kind: 'message', data, turnId: 'turn-😀' }],
        observations: [{ type: 'thoughts', data }],
        now: t0,
      });
      const loaded = await store.loadThread(threadId);
      assert.equal(loaded?.data, data);
      assert.equal(loaded?.principal, 'ユーザー');
      assert.equal((await store.readHistory(threadId))[0]?.data, data);
      assert.equal((await store.readHistory(threadId))[0]?.turnId, 'turn-😀');
      assert.equal((await store.readObservations(threadId))[0]?.data, data);
      assert.equal(JSON.parse(loaded?.data ?? '{}').text, text);
    },
  },
  {
    name: 'records read back are copies: changing them changes nothing stored',
    async run(store) {
      await store.commit(
        change('t1', 0, { history: [historyDraft('one')], observations: [{ type: 'a', data: '{}' }] }),
      );
      await store.journalStart(journalEntry('t1', 'call_1'));
      const thread = await store.loadThread('t1');
      const [entry] = await store.readHistory('t1');
      const [row] = await store.readObservations('t1');
      const journal = await store.readJournal('t1:call_1');
      if (!thread || !entry || !row || !journal) assert.fail('records were stored');
      thread.version = 99;
      entry.seq = 99;
      row.id = 99;
      journal.status = 'succeeded';
      assert.equal((await store.loadThread('t1'))?.version, 1);
      assert.equal((await store.readHistory('t1'))[0]?.seq, 1);
      assert.notEqual((await store.readObservations('t1'))[0]?.id, 99);
      assert.equal((await store.readJournal('t1:call_1'))?.status, 'started');
    },
  },
  {
    name: 'close and reopen keeps threads, rows, leases, journal and audit; ids keep increasing',
    requires: 'reopen',
    async run(store, context) {
      const reopen = context.reopen;
      if (!reopen) return assert.fail('needs reopen');
      const first = await store.commit(
        change('t1', 0, {
          principal: 'alice',
          history: [historyDraft('one')],
          observations: [{ type: 'a', data: '{}' }],
        }),
      );
      await store.acquireLease({ threadId: 't1', owner: 'w1', ttlMs: 60_000, now: t0 });
      await store.journalStart(journalEntry('t1', 'call_1'));
      const auditId = await store.appendAudit(auditDraft('t1', t0));
      const before = await readAll(store, 't1');
      const reopened = await reopen(store);
      assert.deepEqual(await readAll(reopened, 't1'), before);
      assert.equal(
        await reopened.acquireLease({ threadId: 't1', owner: 'w2', ttlMs: 1000, now: t0 + 1 }),
        false,
      );
      assert.deepEqual(await reopened.readJournal('t1:call_1'), journalEntry('t1', 'call_1'));
      const next = await reopened.commit(
        change('t1', 1, { history: [historyDraft('two')], observations: [{ type: 'b', data: '{}' }] }),
      );
      assert.deepEqual(next.historySeqs, [2]);
      assert.ok((next.observationIds[0] ?? 0) > (first.observationIds[0] ?? 0));
      assert.ok((await reopened.appendAudit(auditDraft('t1', t0 + 1))) > auditId);
    },
  },
  {
    name: 'schedules (when the store keeps them): replaced by id, listed soonest first, deleted, kept across a reopen',
    async run(store, context) {
      if (!store.saveSchedule || !store.listSchedules || !store.deleteSchedule) return;
      const entry = (id: string, nextRunAt: number): ScheduleEntry => ({
        specVersion: 1,
        id,
        threadId: `thread-${id}`,
        text: `run ${id}`,
        everyMs: 60_000,
        nextRunAt,
        runs: 0,
        createdAt: t0,
      });
      await store.saveSchedule(entry('b', t0 + 2));
      await store.saveSchedule(entry('a', t0 + 5));
      await store.saveSchedule({ ...entry('a', t0 + 1), runs: 3 });
      assert.deepEqual(await store.listSchedules(), [{ ...entry('a', t0 + 1), runs: 3 }, entry('b', t0 + 2)]);
      assert.equal(await store.deleteSchedule('b'), true);
      assert.equal(await store.deleteSchedule('b'), false);
      const after = context.reopen ? await context.reopen(store) : store;
      assert.deepEqual(await after.listSchedules?.(), [{ ...entry('a', t0 + 1), runs: 3 }]);
    },
  },
  {
    name: 'deleting a thread (when the store can) removes every row of it and only of it, across a reopen',
    async run(store, context) {
      if (!store.deleteThread) return;
      const fill = async (threadId: string) => {
        await store.commit(
          change(threadId, 0, {
            principal: 'alice',
            history: [historyDraft(`secret of ${threadId}`)],
            observations: [{ type: 'turn-start', data: `{"of":"${threadId}"}` }],
          }),
        );
        await store.journalStart(journalEntry(threadId, 'call_1'));
        await store.acquireLease({ threadId, owner: 'w1', ttlMs: 1_000, now: t0 });
        await store.releaseLease({ threadId, owner: 'w1' });
        const auditId = await store.appendAudit(auditDraft(threadId, t0));
        await store.completeAudit({ id: auditId, status: 'succeeded', outputSummary: 'sent', durationMs: 3 });
        await store.saveSchedule?.({
          specVersion: 1,
          id: `every-${threadId}`,
          threadId,
          text: `remind ${threadId}`,
          everyMs: 60_000,
          nextRunAt: t0 + 60_000,
          runs: 0,
          createdAt: t0,
        });
      };
      await fill('gone');
      await fill('kept');
      assert.equal(await store.deleteThread('gone'), true);
      assert.equal(await store.deleteThread('gone'), false);
      assert.equal(await store.deleteThread('never'), false);
      const after = context.reopen ? await context.reopen(store) : store;
      assert.equal(await after.loadThread('gone'), undefined);
      assert.deepEqual(await after.readHistory('gone'), []);
      assert.deepEqual(await after.readObservations('gone'), []);
      assert.deepEqual(await after.listJournal('gone'), []);
      assert.equal(await after.readJournal('gone:call_1'), undefined);
      assert.deepEqual(
        (await after.listThreads()).map((thread) => thread.threadId),
        ['kept'],
      );
      if (after.listSchedules)
        assert.deepEqual(
          (await after.listSchedules()).map((entry) => entry.id),
          ['every-kept'],
        );
      // The audit log keeps who ran what when, without what the thread said (docs/decisions/0076).
      const [goneAudit] = await after.readAudit({ threadId: 'gone' });
      assert.equal(goneAudit?.toolName, 'send_email');
      assert.equal(goneAudit?.principal, 'alice');
      assert.equal(goneAudit?.status, 'succeeded');
      assert.equal(goneAudit?.inputSummary, deletedThreadMark);
      assert.equal(goneAudit?.outputSummary, deletedThreadMark);
      const [keptAudit] = await after.readAudit({ threadId: 'kept' });
      assert.equal(keptAudit?.inputSummary, '{"to":"bob@example.com"}');
      assert.equal((await after.readHistory('kept')).length, 1);
      assert.equal((await after.listJournal('kept')).length, 1);
      // The id is free again: a new thread of the same id starts at version 1 with its own history.
      const again = await after.commit(change('gone', 0, { history: [historyDraft('new start')] }));
      assert.equal(again.version, 1);
      assert.deepEqual(again.historySeqs, [1]);
      assert.ok(await after.acquireLease({ threadId: 'gone', owner: 'w2', ttlMs: 1_000, now: t0 }));
    },
  },
  {
    name: 'A2A tasks (when the store keeps them): replaced by scope and id, listed newest first, kept across a reopen',
    async run(store, context) {
      if (!store.saveA2ATask || !store.loadA2ATask || !store.listA2ATasks) return;
      const task = (scope: string, taskId: string, contextId: string, updatedAt: number) => ({
        scope,
        taskId,
        contextId,
        updatedAt,
        data: JSON.stringify({ id: taskId, contextId, at: updatedAt }),
      });
      await store.saveA2ATask(task('alice', 'task-1', 'ctx-a', t0 + 1));
      await store.saveA2ATask(task('alice', 'task-2', 'ctx-b', t0 + 2));
      await store.saveA2ATask(task('bob', 'task-1', 'ctx-c', t0 + 3));
      await store.saveA2ATask(task('alice', 'task-1', 'ctx-a', t0 + 4));
      assert.deepEqual(
        await store.loadA2ATask({ scope: 'alice', taskId: 'task-1' }),
        task('alice', 'task-1', 'ctx-a', t0 + 4),
      );
      assert.deepEqual(await store.loadA2ATask({ scope: 'bob', taskId: 'task-2' }), undefined);
      const after = context.reopen ? await context.reopen(store) : store;
      assert.deepEqual(await after.listA2ATasks?.({ scope: 'alice' }), [
        task('alice', 'task-1', 'ctx-a', t0 + 4),
        task('alice', 'task-2', 'ctx-b', t0 + 2),
      ]);
      assert.deepEqual(await after.listA2ATasks?.({ scope: 'alice', contextId: 'ctx-b' }), [
        task('alice', 'task-2', 'ctx-b', t0 + 2),
      ]);
      assert.deepEqual(await after.listA2ATasks?.({ scope: 'carol' }), []);
    },
  },
  {
    name: 'after close, calls reject',
    async run(store) {
      await store.commit(change('t1', 0));
      await store.close();
      await assert.rejects(store.loadThread('t1'));
      await assert.rejects(store.commit(change('t1', 1)));
    },
  },
];

/**
 * Runs one case against a fresh store from `createStore` and closes whatever store the case ends with
 * (the reopened one, if it reopened). Closing twice must be harmless, which the last case relies on.
 */
export async function runStoreConformanceCase(
  testCase: StoreConformanceCase,
  createStore: () => Promise<StateStore> | StateStore,
  options: StoreConformanceOptions = {},
): Promise<void> {
  let current = await createStore();
  const givenReopen = options.reopen;
  const context: StoreConformanceContext = givenReopen
    ? {
        reopen: async (store) => {
          current = await givenReopen(store);
          return current;
        },
      }
    : {};
  try {
    await testCase.run(current, context);
  } finally {
    await current.close();
  }
}

/**
 * Registers the whole suite with a test runner: one `describe(name)` with one `it` per case. Cases that
 * need `reopen` are left out when it is not given.
 *
 * @example
 * import { describe, it } from 'vitest';
 * import { describeStoreConformance } from 'flowstack/test';
 * describeStoreConformance('my store', () => createMyStore(), { describe, it });
 */
export function describeStoreConformance(
  name: string,
  createStore: () => Promise<StateStore> | StateStore,
  options: StoreConformanceRunner & StoreConformanceOptions,
): void {
  options.describe(name, () => {
    for (const testCase of storeConformanceCases) {
      if (testCase.requires === 'reopen' && !options.reopen) continue;
      options.it(testCase.name, () => runStoreConformanceCase(testCase, createStore, options));
    }
  });
}
