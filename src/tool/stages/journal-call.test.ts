import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { executeToolBatch } from '../execute-tool-batch.js';
import { call, createTestContext } from '../fixtures/batch-context.js';

const input = z.object({ to: z.string() });

function sender(runs: string[], idempotent = false) {
  return defineTool({
    name: 'send',
    description: 'Sends a message.',
    input,
    idempotent,
    capability: 'controlled',
    execute: ({ to }) => {
      runs.push(to);
      return `sent to ${to}`;
    },
  });
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

  it('does not re-run a non-idempotent call that started but recorded no result (outcome unknown)', async () => {
    const runs: string[] = [];
    const context = createTestContext([sender(runs)]);
    await context.store?.journalStart({
      key: 'thread-1:turn-1:c1',
      threadId: 'thread-1',
      callId: 'c1',
      toolName: 'send',
      argsHash: 'x',
      idempotent: false,
      status: 'started',
      startedAt: 1,
    });
    const [result] = await executeToolBatch([call('send', { to: 'ana' }, 'c1')], context);
    expect(runs).toEqual([]);
    expect(result?.status === 'error' && result.error.message).toContain('outcome_unknown');
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
