import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolCallError } from '../../errors/index.js';
import { defineTool } from '../define-tool.js';
import { executeToolBatch } from '../execute-tool-batch.js';
import { call, createTestContext, deferred } from '../fixtures/batch-context.js';
import type { ToolExecutionContext } from '../tool-definition.js';

const input = z.object({});

// A full collection on demand, to see what a finished call leaves reachable from the batch's signal.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

describe('execute stage (through executeToolBatch)', () => {
  it('stops a hanging tool at its timeout on the injected clock: the signal aborts and a late result is discarded', async () => {
    const release = deferred<string>();
    const seen: ToolExecutionContext[] = [];
    const hang = defineTool({
      name: 'hang',
      description: 'Never answers in time.',
      input,
      timeoutMs: 5_000,
      execute: (_input, context) => {
        seen.push(context);
        return release.promise;
      },
    });
    const context = createTestContext([hang]);
    const pending = executeToolBatch([call('hang')], context);
    await context.clock.advance(4_999);
    expect(seen[0]?.signal.aborted).toBe(false);
    await context.clock.advance(1);
    const [result] = await pending;
    expect(result).toMatchObject({
      status: 'error',
      error: { category: 'timeout', retryable: false, message: 'The tool did not finish within 5000 ms.' },
    });
    expect(seen).toHaveLength(1); // not idempotent: never run again
    expect(seen[0]?.signal.aborted).toBe(true);
    release.resolve('too late');
    await Promise.resolve();
    expect(JSON.stringify(await context.store?.listJournal('thread-1'))).not.toContain('too late');
  });

  it('hands a signal that reads as aborted even when the tool first looks at it after the timeout', async () => {
    const seen: ToolExecutionContext[] = [];
    const tool = defineTool({
      name: 'late_reader',
      description: 'Looks at its signal late.',
      input,
      timeoutMs: 100,
      execute: (_input, context) => {
        seen.push(context);
        return new Promise(() => undefined);
      },
    });
    const context = createTestContext([tool]);
    const [result] = await context.clock.runUntil(executeToolBatch([call('late_reader')], context));
    expect(result?.status).toBe('error');
    expect(seen[0]?.signal.aborted).toBe(true);
    expect(seen[0]?.signal.reason).toEqual(new Error('timeout'));
  });

  it('gives the tool its idempotency key, thread, call id and attempt', async () => {
    const seen: ToolExecutionContext[] = [];
    const tool = defineTool({
      name: 'probe',
      description: 'Records its context.',
      input,
      execute: (_input, context) => {
        seen.push(context);
        return 'ok';
      },
    });
    await executeToolBatch([call('probe', {}, 'c7')], createTestContext([tool]));
    expect(seen[0]).toMatchObject({
      idempotencyKey: 'thread-1:turn-1:c7',
      threadId: 'thread-1',
      callId: 'c7',
      attempt: 1,
    });
  });

  it('turns a thrown error into a server_error result naming it', async () => {
    const tool = defineTool({
      name: 'explode',
      description: 'Throws.',
      input,
      execute: () => {
        throw new TypeError('cannot read properties of undefined');
      },
    });
    const [result] = await executeToolBatch([call('explode')], createTestContext([tool]));
    expect(result).toMatchObject({
      status: 'error',
      error: { category: 'server_error', message: 'TypeError: cannot read properties of undefined' },
    });
  });

  it('keeps the category of a ToolCallError, and of a rejected promise', async () => {
    const tool = defineTool({
      name: 'lookup',
      description: 'Finds a record.',
      input,
      execute: async () => {
        throw new ToolCallError({ category: 'not_found', message: 'No booking ABC123.' });
      },
    });
    const [result] = await executeToolBatch([call('lookup')], createTestContext([tool]));
    expect(result).toMatchObject({
      status: 'error',
      error: { category: 'not_found', message: 'No booking ABC123.', retryable: false },
      contextText: "Error (not_found) from tool 'lookup': No booking ABC123.",
    });
  });

  it.each(['Error: upstream said no', '  error: lower case too'])(
    'takes text output starting with "Error:" (%j) as a failure',
    async (text) => {
      const tool = defineTool({ name: 'legacy', description: 'Old style.', input, execute: () => text });
      const [result] = await executeToolBatch([call('legacy')], createTestContext([tool]));
      expect(result).toMatchObject({ status: 'error', error: { category: 'server_error' } });
      expect(result?.status === 'error' && result.error.message).toMatch(/upstream said no|lower case too/);
    },
  );

  it.each([
    ['text "Errors found: 0"', 'Errors found: 0'],
    ['JSON text with an error field', '{"error": "none", "errors": 0}'],
    ['an object with an error field', { error: 'Error: none', count: 0 }],
  ])('does not take %s as a failure', async (_what, output) => {
    const tool = defineTool({
      name: 'report',
      description: 'Reports.',
      input,
      execute: () => output,
    });
    const [result] = await executeToolBatch([call('report')], createTestContext([tool]));
    expect(result).toMatchObject({ status: 'success', output });
  });

  it('cancels running calls when the batch signal aborts, without retrying them', async () => {
    const controller = new AbortController();
    const seen: AbortSignal[] = [];
    const started = deferred();
    const slow = defineTool({
      name: 'slow',
      description: 'Slow.',
      input,
      idempotent: true,
      execute: (_input, context) => {
        seen.push(context.signal);
        started.resolve();
        return new Promise(() => undefined);
      },
    });
    const pending = executeToolBatch(
      [call('slow')],
      createTestContext([slow], { signal: controller.signal }),
    );
    await started.promise;
    controller.abort(new Error('user left'));
    const [result] = await pending;
    expect(result).toMatchObject({ status: 'error', error: { category: 'timeout', retryable: false } });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.aborted).toBe(true);
  });

  it('does not start a call of a batch that is already cancelled', async () => {
    const runs: number[] = [];
    const tool = defineTool({ name: 't', description: 'T.', input, execute: () => runs.push(1) });
    const [result] = await executeToolBatch(
      [call('t')],
      createTestContext([tool], { signal: AbortSignal.abort() }),
    );
    expect(result?.status).toBe('error');
    expect(runs).toEqual([]);
  });

  it('runs every execution through the batch observer, which sees the tool, the input, the call id and the outcome', async () => {
    const observed: { tool: string; input: unknown; callId: string; outcome: string }[] = [];
    let fail = false;
    const tool = defineTool({
      name: 'echo',
      description: 'Echoes.',
      input: z.object({ text: z.string() }),
      idempotent: true,
      execute: ({ text }) => {
        if (fail) throw new ToolCallError({ category: 'server_error', message: 'down' });
        return { text };
      },
    });
    const context = createTestContext([tool], {
      observeExecution: async (call, execute) => {
        const entry = { tool: call.tool.name, input: call.input, callId: call.callId, outcome: 'running' };
        observed.push(entry);
        try {
          const output = await execute();
          entry.outcome = `returned ${JSON.stringify(output)}`;
          return output;
        } catch (error) {
          entry.outcome = `threw ${(error as Error).message}`;
          throw error;
        }
      },
    });
    const [ok] = await executeToolBatch([call('echo', { text: 'hi' }, 'c1')], context);
    expect(ok).toMatchObject({ status: 'success', output: { text: 'hi' } });
    // The same call again in the same turn is answered from the journal: nothing executes, nothing is observed.
    await executeToolBatch([call('echo', { text: 'hi' }, 'c1')], context);
    fail = true;
    const [failed] = await context.clock.runUntil(
      executeToolBatch([call('echo', { text: 'again' }, 'c2')], context),
    );
    expect(failed).toMatchObject({ status: 'error', error: { category: 'server_error' } });
    expect(observed[0]).toEqual({
      tool: 'echo',
      input: { text: 'hi' },
      callId: 'c1',
      outcome: 'returned {"text":"hi"}',
    });
    expect(observed.slice(1).map((o) => o.outcome)).toEqual(observed.slice(1).map(() => 'threw down'));
    expect(observed.length).toBeGreaterThanOrEqual(2);
  });

  it("keeps nothing of a finished call alive from the batch's signal, which outlives it, the first call included", async () => {
    const controller = new AbortController();
    const outputs: WeakRef<object>[] = [];
    const tool = defineTool({
      name: 'big',
      description: 'Returns a large object.',
      input,
      execute: () => {
        const output = { text: 'x'.repeat(10_000) };
        outputs.push(new WeakRef(output));
        return output;
      },
    });
    const context = createTestContext([tool], { signal: controller.signal, store: undefined });
    for (const id of ['first', 'second']) {
      const [result] = await executeToolBatch([call('big', {}, id)], context);
      expect(result?.status).toBe('success');
    }
    // A weak reference made in this job keeps its target until the job ends.
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
    expect(outputs.map((output) => output.deref())).toEqual([undefined, undefined]);
  });
});
