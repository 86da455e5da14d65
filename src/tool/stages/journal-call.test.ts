import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { executeToolBatch } from '../execute-tool-batch.js';
import { call, createTestContext, deferred } from '../fixtures/batch-context.js';
import { resumeToolCall } from '../resume-tool-call.js';
import { createFreshJournal } from '../tool-batch-context.js';

const input = z.object({ to: z.string() });

function senderOptions(runs: string[], idempotent = false) {
  return {
    name: 'send',
    description: 'Sends a message.',
    input,
    idempotent,
    capability: 'controlled' as const,
    execute: ({ to }: { to: string }) => {
      runs.push(to);
      return `sent to ${to}`;
    },
  };
}

function sender(runs: string[], idempotent = false) {
  return defineTool(senderOptions(runs, idempotent));
}

/** A journal row of a call that started before a crash and recorded nothing. */
function startedEntry() {
  return {
    key: 'thread-1:turn-1:c1',
    threadId: 'thread-1',
    callId: 'c1',
    toolName: 'send',
    argsHash: 'x',
    idempotent: false,
    status: 'started' as const,
    startedAt: 1,
  };
}

describe('journal and replay stages (through executeToolBatch)', () => {
  it('journals start and redacted result under the idempotency key, with the argument hash', async () => {
    const context = createTestContext([sender([])]);
    await executeToolBatch([call('send', { to: 'ana' }, 'c1')], context);
    const [entry] = (await context.store?.listJournal('thread-1')) ?? [];
    expect(entry).toMatchObject({
      key: 'thread-1:turn-1:c1',
      callId: 'c1',
      toolName: 'send',
      idempotent: false,
      status: 'succeeded',
    });
    expect(entry?.argsHash).toMatch(/^[0-9a-f]{32}$/);
    expect(JSON.parse(entry?.result ?? '{}')).toMatchObject({ status: 'success', output: 'sent to ana' });
  });

  it('answers a repeated call from the journal: not run, not counted, not audited again', async () => {
    const runs: string[] = [];
    const context = createTestContext([sender(runs)]);
    const first = await executeToolBatch([call('send', { to: 'ana' }, 'c1')], context);
    const again = await executeToolBatch([call('send', { to: 'ana' }, 'c1')], context);
    expect(runs).toEqual(['ana']);
    expect(again).toEqual(first);
    expect(await context.store?.readAudit({ threadId: 'thread-1' })).toHaveLength(1);
  });

  it('refuses the same call id with other arguments instead of answering with the old result', async () => {
    const runs: string[] = [];
    const context = createTestContext([sender(runs)]);
    await executeToolBatch([call('send', { to: 'ana' }, 'c1')], context);
    const [result] = await executeToolBatch([call('send', { to: 'bob' }, 'c1')], context);
    expect(result).toMatchObject({ status: 'error', error: { category: 'validation_error' } });
    expect(runs).toEqual(['ana']);
  });

  it('does not re-run a non-idempotent call that started but recorded no result: it asks a person', async () => {
    const runs: string[] = [];
    const context = createTestContext([sender(runs)]);
    await context.store?.journalStart(startedEntry());
    const [result] = await executeToolBatch([call('send', { to: 'ana' }, 'c1')], context);
    expect(runs).toEqual([]);
    expect(result).toMatchObject({
      status: 'suspended',
      kind: 'outcome_unknown',
      idempotencyKey: 'thread-1:turn-1:c1',
    });
    expect(result?.contextText).toContain('outcome_unknown');
    expect((await context.store?.readJournal('thread-1:turn-1:c1'))?.status).toBe('started');
  });

  it("settles an unknown outcome with the tool's reconcile hook: it happened, so its output is the result", async () => {
    const runs: string[] = [];
    const asked: string[] = [];
    const tool = defineTool({
      ...senderOptions(runs),
      reconcile: async (key) => {
        asked.push(key);
        return { happened: true, output: 'sent to ana (found by reconcile)' };
      },
    });
    const context = createTestContext([tool]);
    await context.store?.journalStart(startedEntry());
    const [result] = await executeToolBatch([call('send', { to: 'ana' }, 'c1')], context);
    expect(runs).toEqual([]);
    expect(asked).toEqual(['thread-1:turn-1:c1']);
    expect(result).toMatchObject({ status: 'success', output: 'sent to ana (found by reconcile)' });
    expect((await context.store?.readJournal('thread-1:turn-1:c1'))?.status).toBe('succeeded');
  });

  it('runs the call once more, under the same key, when reconcile finds it did not happen', async () => {
    const runs: string[] = [];
    const keys: string[] = [];
    const tool = defineTool({
      ...senderOptions(runs),
      execute: ({ to }, { idempotencyKey }) => {
        runs.push(to);
        keys.push(idempotencyKey);
        return `sent to ${to}`;
      },
      reconcile: async () => ({ happened: false }),
    });
    const context = createTestContext([tool]);
    await context.store?.journalStart(startedEntry());
    const [result] = await executeToolBatch([call('send', { to: 'ana' }, 'c1')], context);
    expect(result?.status).toBe('success');
    expect(runs).toEqual(['ana']);
    expect(keys).toEqual(['thread-1:turn-1:c1']);
  });

  it('asks a person when the reconcile hook fails, and runs again when the person said it did not happen', async () => {
    const runs: string[] = [];
    const tool = defineTool({
      ...senderOptions(runs),
      reconcile: async () => {
        throw new Error('the mail server does not say');
      },
    });
    const context = createTestContext([tool]);
    await context.store?.journalStart(startedEntry());
    const [asked] = await executeToolBatch([call('send', { to: 'ana' }, 'c1')], context);
    expect(asked).toMatchObject({ status: 'suspended', kind: 'outcome_unknown' });
    const rerun = await resumeToolCall(
      { callId: 'c1', toolName: 'send', idempotencyKey: 'thread-1:turn-1:c1' },
      { kind: 'rerun', input: { to: 'ana' } },
      context,
    );
    expect(rerun.status).toBe('success');
    expect(runs).toEqual(['ana']);
  });

  it('does re-run an idempotent call that started but recorded no result', async () => {
    const runs: string[] = [];
    const context = createTestContext([sender(runs, true)]);
    await context.store?.journalStart({
      key: 'thread-1:turn-1:c1',
      threadId: 'thread-1',
      callId: 'c1',
      toolName: 'send',
      argsHash: 'x',
      idempotent: true,
      status: 'started',
      startedAt: 1,
    });
    const [result] = await executeToolBatch([call('send', { to: 'ana' }, 'c1')], context);
    expect(runs).toEqual(['ana']);
    expect(result?.status).toBe('success');
  });

  it('runs without a store (nothing journaled, nothing audited)', async () => {
    const runs: string[] = [];
    const context = createTestContext([sender(runs)], { store: undefined });
    const [result] = await executeToolBatch([call('send', { to: 'ana' })], context);
    expect(result?.status).toBe('success');
  });
});

describe('journal of a turn begun in this process (freshJournal)', () => {
  function countReads(context: ReturnType<typeof createTestContext>) {
    const store = context.store;
    if (!store) throw new Error('the test context has a store');
    const reads = { count: 0 };
    const read = store.readJournal.bind(store);
    store.readJournal = (key) => {
      reads.count++;
      return read(key);
    };
    return reads;
  }

  it('runs a new call without reading the journal, and still journals it', async () => {
    const runs: string[] = [];
    const context = createTestContext([sender(runs)], { freshJournal: createFreshJournal('turn-1') });
    const reads = countReads(context);
    const [result] = await executeToolBatch([call('send', { to: 'ana' }, 'c1')], context);
    expect(result?.status).toBe('success');
    expect(reads.count).toBe(0);
    expect(runs).toEqual(['ana']);
    expect(await context.store?.readJournal('thread-1:turn-1:c1')).toMatchObject({ status: 'succeeded' });
  });

  it('still answers a call id used again in the turn from the journal, and refuses it with other arguments', async () => {
    const runs: string[] = [];
    const context = createTestContext([sender(runs)], { freshJournal: createFreshJournal('turn-1') });
    const first = await executeToolBatch([call('send', { to: 'ana' }, 'c1')], context);
    expect(await executeToolBatch([call('send', { to: 'ana' }, 'c1')], context)).toEqual(first);
    const [other] = await executeToolBatch([call('send', { to: 'bob' }, 'c1')], context);
    expect(other).toMatchObject({ status: 'error', error: { category: 'validation_error' } });
    expect(runs).toEqual(['ana']);
  });

  it('honours a finished row another process wrote under the key: its result, nothing run', async () => {
    const runs: string[] = [];
    const other = createTestContext([sender(runs)]);
    const [theirs] = await executeToolBatch([call('send', { to: 'ana' }, 'c1')], other);
    const context = createTestContext([sender(runs)], {
      store: other.store,
      freshJournal: createFreshJournal('turn-1'),
    });
    const [mine] = await executeToolBatch([call('send', { to: 'ana' }, 'c1')], context);
    expect(runs).toEqual(['ana']);
    expect(mine).toEqual(theirs);
  });

  it('does not run a non-idempotent call another process started and left without a result', async () => {
    const runs: string[] = [];
    const context = createTestContext([sender(runs)], { freshJournal: createFreshJournal('turn-1') });
    await context.store?.journalStart(startedEntry());
    const [result] = await executeToolBatch([call('send', { to: 'ana' }, 'c1')], context);
    expect(runs).toEqual([]);
    expect(result).toMatchObject({ status: 'suspended', kind: 'outcome_unknown' });
  });

  it('reads the journal for a batch of another turn (a resumed run) and replays what is there', async () => {
    const runs: string[] = [];
    const context = createTestContext([sender(runs)]);
    const first = await executeToolBatch([call('send', { to: 'ana' }, 'c1')], context);
    const resumed = { ...context, freshJournal: createFreshJournal('turn-2') };
    const reads = countReads(resumed);
    expect(await executeToolBatch([call('send', { to: 'ana' }, 'c1')], resumed)).toEqual(first);
    expect(reads.count).toBe(1);
    expect(runs).toEqual(['ana']);
  });
});

describe('one journal row per idempotent call of a turn begun in this process', () => {
  function countWrites(context: ReturnType<typeof createTestContext>) {
    const store = context.store;
    if (!store?.journalRecord) throw new Error('the test context has a store that records rows whole');
    const writes: string[] = [];
    const start = store.journalStart.bind(store);
    const record = store.journalRecord.bind(store);
    const finish = store.journalFinish.bind(store);
    store.journalStart = (entry) => {
      writes.push(`start ${entry.key}`);
      return start(entry);
    };
    store.journalRecord = (entry) => {
      writes.push(`record ${entry.key} ${entry.status}`);
      return record(entry);
    };
    store.journalFinish = (entry) => {
      writes.push(`finish ${entry.key} ${entry.status}`);
      return finish(entry);
    };
    return writes;
  }

  it('writes the row once, with its result, when the call has run', async () => {
    const runs: string[] = [];
    const held = deferred();
    const tool = defineTool({
      ...senderOptions(runs, true),
      execute: async ({ to }: { to: string }) => {
        await held.promise;
        runs.push(to);
        return `sent to ${to}`;
      },
    });
    const context = createTestContext([tool], { freshJournal: createFreshJournal('turn-1') });
    const writes = countWrites(context);
    const running = executeToolBatch([call('send', { to: 'ana' }, 'c1')], context);
    await new Promise((resolve) => setTimeout(resolve, 5));
    // While it runs there is no row: a crash now leaves a call that may simply run again.
    expect(await context.store?.readJournal('thread-1:turn-1:c1')).toBeUndefined();
    held.resolve();
    const [result] = await running;
    expect(result?.status).toBe('success');
    expect(writes).toEqual(['record thread-1:turn-1:c1 succeeded']);
    const row = await context.store?.readJournal('thread-1:turn-1:c1');
    expect(row).toMatchObject({ callId: 'c1', toolName: 'send', idempotent: true, status: 'succeeded' });
    expect(row?.argsHash).toMatch(/^[0-9a-f]{32}$/);
    expect(row?.finishedAt).toBeGreaterThanOrEqual(row?.startedAt ?? Number.POSITIVE_INFINITY);
    expect(JSON.parse(row?.result ?? '{}')).toMatchObject({ status: 'success', output: 'sent to ana' });
    // Used again in the turn, the call id is answered from that row.
    expect(await executeToolBatch([call('send', { to: 'ana' }, 'c1')], context)).toEqual([result]);
    expect(runs).toEqual(['ana']);
  });

  it('hashes the arguments as called, even when the tool changes the input it was given', async () => {
    const tool = defineTool({
      ...senderOptions([], true),
      execute: (input: { to: string }) => {
        input.to = 'someone else';
        return 'sent';
      },
    });
    const context = createTestContext([tool], { freshJournal: createFreshJournal('turn-1') });
    await executeToolBatch([call('send', { to: 'ana' }, 'c1')], context);
    const reference = createTestContext([sender([], true)], { freshJournal: createFreshJournal('turn-1') });
    await executeToolBatch([call('send', { to: 'ana' }, 'c1')], reference);
    const row = await context.store?.readJournal('thread-1:turn-1:c1');
    expect(row?.argsHash).toBe((await reference.store?.readJournal('thread-1:turn-1:c1'))?.argsHash);
    // So the same call, asked again in the turn, is answered from the row rather than refused.
    const [again] = await executeToolBatch([call('send', { to: 'ana' }, 'c1')], context);
    expect(again?.status).toBe('success');
  });

  it('still starts a non-idempotent call before it runs', async () => {
    const context = createTestContext([sender([])], { freshJournal: createFreshJournal('turn-1') });
    const writes = countWrites(context);
    await executeToolBatch([call('send', { to: 'ana' }, 'c1')], context);
    expect(writes).toEqual(['start thread-1:turn-1:c1', 'finish thread-1:turn-1:c1 succeeded']);
  });

  it('answers with a result of the same call that was recorded while it ran', async () => {
    const runs: string[] = [];
    const held = deferred();
    const tool = defineTool({
      ...senderOptions(runs, true),
      execute: async ({ to }: { to: string }) => {
        await held.promise;
        runs.push(to);
        return `sent to ${to} (${runs.length})`;
      },
    });
    const context = createTestContext([tool], { freshJournal: createFreshJournal('turn-1') });
    const running = executeToolBatch([call('send', { to: 'ana' }, 'c1')], context);
    await new Promise((resolve) => setTimeout(resolve, 5));
    // Another process took the turn over and finished the same call first.
    const other = createTestContext([sender([], true)], { store: context.store });
    const [theirs] = await executeToolBatch([call('send', { to: 'ana' }, 'c1')], other);
    held.resolve();
    const [mine] = await running;
    expect(mine).toEqual(theirs);
    expect(JSON.parse((await context.store?.readJournal('thread-1:turn-1:c1'))?.result ?? '{}')).toEqual(
      theirs,
    );
  });

  it('finishes a row that was only started meanwhile with its own result', async () => {
    const runs: string[] = [];
    const held = deferred();
    const tool = defineTool({
      ...senderOptions(runs, true),
      execute: async ({ to }: { to: string }) => {
        await held.promise;
        runs.push(to);
        return `sent to ${to}`;
      },
    });
    const context = createTestContext([tool], { freshJournal: createFreshJournal('turn-1') });
    const running = executeToolBatch([call('send', { to: 'ana' }, 'c1')], context);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await context.store?.journalStart({ ...startedEntry(), idempotent: true });
    held.resolve();
    const [mine] = await running;
    expect(mine?.status).toBe('success');
    const row = await context.store?.readJournal('thread-1:turn-1:c1');
    expect(row?.status).toBe('succeeded');
    expect(JSON.parse(row?.result ?? '{}')).toEqual(mine);
  });
});
