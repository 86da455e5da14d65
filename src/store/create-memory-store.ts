import { ConfigurationError, VersionConflictError } from '../errors/index.js';
import {
  type AuditRecord,
  deletedThreadMark,
  type HistoryEntry,
  type JournalEntry,
  type ObservationRow,
  type ScheduleEntry,
  type StateStore,
  type StoredA2ATask,
  type StoredThread,
} from '../spec/index.js';
import type { Clock } from '../util/index.js';
import { assertValidCommit } from './internal/assert-valid-commit.js';
import { copyDefined } from './internal/copy-defined.js';
import { journalRow } from './internal/journal-row.js';
import { StoreError } from './store-error.js';

/** Options of {@link createMemoryStore}. */
export interface MemoryStoreOptions {
  /**
   * Accepted so that store factories share one options shape. Every time the contract records is passed
   * in by the caller (`now`, `startedAt`, `createdAt`), so the memory store never reads the clock.
   */
  clock?: Clock;
  /**
   * How many threads the store keeps (default 10,000). A commit that starts a thread beyond it deletes
   * the least recently used thread that holds no lease — read or committed longest ago — as
   * `deleteThread` would; a thread whose turn runs is never evicted, so the store may hold more while
   * every thread is busy. `Infinity` keeps every thread (docs/decisions/0076).
   */
  maxThreads?: number;
}

/** The memory store's bound on threads when `maxThreads` is left out. */
export const defaultMaxMemoryThreads = 10_000;

interface Lease {
  owner: string;
  expiresAt: number;
}

const kind = 'memory';

/**
 * A `StateStore` that keeps everything in this process, for tests and demos. It has the exact semantics
 * of the durable stores (it passes the same conformance suite): records are copied in and out, ids only
 * grow, stale versions conflict and a rejected commit writes nothing.
 *
 * @example
 * const store = createMemoryStore();
 * const { version } = await store.commit({ threadId: 't1', expectedVersion: 0, data: '{}', now: Date.now() });
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): StateStore {
  const maxThreads = options.maxThreads ?? defaultMaxMemoryThreads;
  if (!(maxThreads >= 1))
    throw new ConfigurationError({
      message: `maxThreads must be at least 1 (or Infinity), not ${options.maxThreads}.`,
    });
  // In use order: a thread read or committed moves to the end, so the first idle one is the least recent.
  const threads = new Map<string, StoredThread>();
  const histories = new Map<string, HistoryEntry[]>();
  const observations = new Map<string, ObservationRow[]>();
  const leases = new Map<string, Lease>();
  const journal = new Map<string, JournalEntry>();
  const audit: AuditRecord[] = [];
  // Per thread, so that deleting or evicting one does not read every other thread's rows.
  const journalKeysOf = new Map<string, Set<string>>();
  const auditIdsOf = new Map<string, number[]>();
  const keepJournal = (entry: JournalEntry) => {
    journal.set(entry.key, entry);
    const keys = journalKeysOf.get(entry.threadId) ?? new Set<string>();
    journalKeysOf.set(entry.threadId, keys.add(entry.key));
  };
  const schedules = new Map<string, string>();
  const a2aTasks = new Map<string, StoredA2ATask>();
  const a2aKey = (scope: string, taskId: string) => JSON.stringify([scope, taskId]);
  let lastObservationId = 0;
  let closed = false;

  const touch = (thread: StoredThread) => {
    threads.delete(thread.threadId);
    threads.set(thread.threadId, thread);
  };

  const removeThread = (threadId: string): boolean => {
    const existed = threads.delete(threadId);
    histories.delete(threadId);
    observations.delete(threadId);
    leases.delete(threadId);
    for (const key of journalKeysOf.get(threadId) ?? []) journal.delete(key);
    journalKeysOf.delete(threadId);
    for (const [id, data] of schedules)
      if ((JSON.parse(data) as ScheduleEntry).threadId === threadId) schedules.delete(id);
    // An A2A task's context is its thread.
    for (const [key, task] of a2aTasks) if (task.contextId === threadId) a2aTasks.delete(key);
    for (const id of auditIdsOf.get(threadId) ?? []) {
      const record = audit[id - 1] as AuditRecord;
      audit[id - 1] = {
        ...record,
        inputSummary: deletedThreadMark,
        ...(record.outputSummary !== undefined ? { outputSummary: deletedThreadMark } : {}),
      };
    }
    return existed;
  };

  /** Makes room for one more thread: evicts least recently used threads that hold no live lease. */
  const evictIdleThreads = (now: number) => {
    let excess = threads.size - maxThreads + 1;
    for (const threadId of threads.keys()) {
      if (excess <= 0) return;
      const lease = leases.get(threadId);
      if (lease && lease.expiresAt > now) continue;
      removeThread(threadId);
      excess -= 1;
    }
  };

  const assertOpen = () => {
    if (closed)
      throw new StoreError({ reason: 'closed', store: kind, message: 'The memory store is closed.' });
  };

  return {
    specVersion: 1,
    kind,

    async loadThread(threadId) {
      assertOpen();
      const thread = threads.get(threadId);
      if (thread) touch(thread);
      return thread && { ...thread };
    },

    async commit(change) {
      assertOpen();
      assertValidCommit(kind, change);
      const current = threads.get(change.threadId);
      const actualVersion = current?.version ?? 0;
      if (change.expectedVersion !== actualVersion) {
        throw new VersionConflictError({
          threadId: change.threadId,
          expectedVersion: change.expectedVersion,
          actualVersion,
        });
      }
      const version = actualVersion + 1;
      if (!current && threads.size >= maxThreads) evictIdleThreads(change.now);
      threads.delete(change.threadId);
      threads.set(
        change.threadId,
        copyDefined({
          threadId: change.threadId,
          version,
          data: change.data,
          principal: change.principal ?? current?.principal,
          createdAt: current?.createdAt ?? change.now,
          updatedAt: change.now,
        }),
      );
      const history = histories.get(change.threadId) ?? [];
      histories.set(change.threadId, history);
      const historySeqs = (change.history ?? []).map((draft) => {
        const seq = history.length + 1;
        history.push({
          threadId: change.threadId,
          seq,
          kind: draft.kind,
          data: draft.data,
          turnId: draft.turnId,
          createdAt: change.now,
        });
        return seq;
      });
      const rows = observations.get(change.threadId) ?? [];
      observations.set(change.threadId, rows);
      const observationIds = (change.observations ?? []).map((draft) => {
        lastObservationId += 1;
        rows.push({
          id: lastObservationId,
          threadId: change.threadId,
          type: draft.type,
          data: draft.data,
          createdAt: change.now,
        });
        return lastObservationId;
      });
      return { version, historySeqs, observationIds };
    },

    async listThreads(options = {}) {
      assertOpen();
      return [...threads.values()]
        .filter((thread) => options.principal === undefined || thread.principal === options.principal)
        .sort((a, b) => b.updatedAt - a.updatedAt || compareText(a.threadId, b.threadId))
        .slice(0, toLimit(options.limit))
        .map(({ data: _data, ...summary }) => summary);
    },

    async readHistory(threadId, options = {}) {
      assertOpen();
      // Seqs are 1..n without gaps, so `afterSeq` is also the index of the first entry to return.
      const start = Math.max(0, Math.floor(options.afterSeq ?? 0));
      const entries = histories.get(threadId) ?? [];
      return entries.slice(start, start + toLimit(options.limit)).map((entry) => ({ ...entry }));
    },

    async readObservations(threadId, options = {}) {
      assertOpen();
      const rows = observations.get(threadId) ?? [];
      const start = firstIndexAfter(rows, options.afterId ?? 0);
      return rows.slice(start, start + toLimit(options.limit)).map((row) => ({ ...row }));
    },

    async acquireLease({ threadId, owner, ttlMs, now }) {
      assertOpen();
      const lease = leases.get(threadId);
      if (lease && lease.owner !== owner && lease.expiresAt > now) return false;
      leases.set(threadId, { owner, expiresAt: now + ttlMs });
      return true;
    },

    async releaseLease({ threadId, owner }) {
      assertOpen();
      if (leases.get(threadId)?.owner === owner) leases.delete(threadId);
    },

    async journalStart(entry) {
      assertOpen();
      const existing = journal.get(entry.key);
      if (existing) return { ...existing };
      // The fields of a started entry, by name: the same record as the other stores keep.
      const started: JournalEntry = {
        key: entry.key,
        threadId: entry.threadId,
        callId: entry.callId,
        toolName: entry.toolName,
        argsHash: entry.argsHash,
        idempotent: entry.idempotent,
        status: 'started',
        startedAt: entry.startedAt,
      };
      keepJournal(started);
      return { ...started };
    },

    async journalRecord(entry) {
      assertOpen();
      const existing = journal.get(entry.key);
      if (existing) return { ...existing };
      const recorded = journalRow(entry, entry);
      keepJournal(recorded);
      return { ...recorded };
    },

    async journalFinish({ key, status, result, finishedAt }) {
      assertOpen();
      const entry = journal.get(key);
      if (!entry) throw notFound(`No journal entry '${key}' to finish.`);
      journal.set(key, journalRow(entry, { status, finishedAt, result }));
    },

    async readJournal(key) {
      assertOpen();
      const entry = journal.get(key);
      return entry && { ...entry };
    },

    async listJournal(threadId, options = {}) {
      assertOpen();
      const prefix = options.keyPrefix ?? '';
      return [...journal.values()]
        .filter((entry) => entry.threadId === threadId && entry.key.startsWith(prefix))
        .sort((a, b) => a.startedAt - b.startedAt)
        .map((entry) => ({ ...entry }));
    },

    async appendAudit(record) {
      assertOpen();
      const id = audit.length + 1;
      audit.push(copyDefined({ ...record, id }));
      const ids = auditIdsOf.get(record.threadId);
      if (ids) ids.push(id);
      else auditIdsOf.set(record.threadId, [id]);
      return id;
    },

    async completeAudit({ id, status, outputSummary, durationMs }) {
      assertOpen();
      const record = audit[id - 1];
      if (!record) throw notFound(`No audit record ${id} to complete.`);
      audit[id - 1] = { ...record, status, outputSummary, durationMs };
    },

    async readAudit(options = {}) {
      assertOpen();
      const limit = toLimit(options.limit);
      const newestFirst: AuditRecord[] = [];
      for (let index = audit.length - 1; index >= 0 && newestFirst.length < limit; index--) {
        const record = audit[index];
        if (record && (options.threadId === undefined || record.threadId === options.threadId)) {
          newestFirst.push({ ...record });
        }
      }
      return newestFirst;
    },

    async saveSchedule(entry) {
      assertOpen();
      schedules.set(entry.id, JSON.stringify(entry));
    },

    async deleteSchedule(id) {
      assertOpen();
      return schedules.delete(id);
    },

    async listSchedules() {
      assertOpen();
      return [...schedules.values()]
        .map((data) => JSON.parse(data) as ScheduleEntry)
        .sort((a, b) => a.nextRunAt - b.nextRunAt || a.id.localeCompare(b.id));
    },

    async deleteThread(threadId) {
      assertOpen();
      return removeThread(threadId);
    },

    async saveA2ATask(task) {
      assertOpen();
      a2aTasks.set(a2aKey(task.scope, task.taskId), { ...task });
    },

    async loadA2ATask({ scope, taskId }) {
      assertOpen();
      const task = a2aTasks.get(a2aKey(scope, taskId));
      return task && { ...task };
    },

    async listA2ATasks({ scope, contextId }) {
      assertOpen();
      return [...a2aTasks.values()]
        .filter((task) => task.scope === scope && (contextId === undefined || task.contextId === contextId))
        .sort((a, b) => b.updatedAt - a.updatedAt || compareText(b.taskId, a.taskId))
        .map((task) => ({ ...task }));
    },

    async close() {
      closed = true;
    },
  };
}

function toLimit(limit: number | undefined): number {
  return limit === undefined ? Number.POSITIVE_INFINITY : Math.max(0, Math.floor(limit));
}

/** A deterministic tie-break between threads updated at the same time. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Binary search over rows sorted by id: the index of the first row whose id is greater than `afterId`. */
function firstIndexAfter(rows: ObservationRow[], afterId: number): number {
  let low = 0;
  let high = rows.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((rows[middle]?.id ?? 0) > afterId) high = middle;
    else low = middle + 1;
  }
  return low;
}

function notFound(message: string): StoreError {
  return new StoreError({ reason: 'not_found', store: kind, message });
}
