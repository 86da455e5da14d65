import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from './define-tool.js';
import { executeToolBatch } from './execute-tool-batch.js';
import { call, createTestContext, deferred } from './fixtures/batch-context.js';
import { defaultToolPipeline } from './tool-pipeline.js';
import type { Guard } from './tool-stage.js';

const input = z.object({ n: z.number() });

/** A tool that records how many of its calls run at once; each call waits until the test releases it. */
function gatedTool(name: string, parallel: boolean) {
  const state = {
    active: 0,
    peak: 0,
    started: [] as number[],
    gates: [] as ReturnType<typeof deferred<void>>[],
  };
  const tool = defineTool({
    name,
    description: 'Waits.',
    input,
    parallel,
    execute: async ({ n }) => {
      state.active++;
      state.peak = Math.max(state.peak, state.active);
      state.started.push(n);
      const gate = deferred();
      state.gates.push(gate);
      await gate.promise;
      state.active--;
      return n * 10;
    },
  });
  const releaseAll = async (count: number) => {
    for (let released = 0; released < count; ) {
      await new Promise((resolve) => setImmediate(resolve));
      const open = state.gates.splice(0);
      for (const gate of open) gate.resolve();
      released += open.length;
    }
  };
  return { tool, state, releaseAll };
}

describe('executeToolBatch', () => {
  it('returns results in call order, keeping every sibling of a failing call', async () => {
    const ok = defineTool({ name: 'ok', description: 'Ok.', input, execute: ({ n }) => n });
    const bad = defineTool({
      name: 'bad',
      description: 'Bad.',
      input,
      execute: () => {
        throw new Error('boom');
      },
    });
    const results = await executeToolBatch(
      [
        call('ok', { n: 1 }, 'a'),
        call('bad', { n: 2 }, 'b'),
        call('nope', { n: 3 }, 'c'),
        call('ok', '{', 'd'),
        call('ok', { n: 5 }, 'e'),
      ],
      createTestContext([ok, bad]),
    );
    expect(results.map((r) => [r.callId, r.status])).toEqual([
      ['a', 'success'],
      ['b', 'error'],
      ['c', 'error'],
      ['d', 'error'],
      ['e', 'success'],
    ]);
  });

  it('runs the calls of one parallel group concurrently, and groups one after another', async () => {
    const { tool, state, releaseAll } = gatedTool('work', false);
    const calls = [
      { ...call('work', { n: 1 }, 'a'), parallelGroup: 'p1' },
      { ...call('work', { n: 2 }, 'b'), parallelGroup: 'p1' },
      { ...call('work', { n: 3 }, 'c'), parallelGroup: 'p1' },
      call('work', { n: 4 }, 'd'),
    ];
    const pending = executeToolBatch(calls, createTestContext([tool]));
    await releaseAll(4);
    const results = await pending;
    expect(state.peak).toBe(3);
    expect(state.started.slice(-1)).toEqual([4]);
    expect(results.map((r) => r.status === 'success' && r.output)).toEqual([10, 20, 30, 40]);
  });

  it('runs calls the model issued together concurrently when their tools allow it, others alone', async () => {
    const reads = gatedTool('read', true);
    const writes = gatedTool('write', false);
    const pending = executeToolBatch(
      [
        call('read', { n: 1 }, 'a'),
        call('read', { n: 2 }, 'b'),
        call('write', { n: 3 }, 'c'),
        call('write', { n: 4 }, 'd'),
      ],
      createTestContext([reads.tool, writes.tool]),
    );
    await Promise.all([reads.releaseAll(2), writes.releaseAll(2)]);
    await pending;
    expect(reads.state.peak).toBe(2);
    expect(writes.state.peak).toBe(1);
  });

  it('holds a group to the concurrency limit', async () => {
    const { tool, state, releaseAll } = gatedTool('read', true);
    const pending = executeToolBatch(
      Array.from({ length: 10 }, (_, i) => call('read', { n: i }, `c${i}`)),
      createTestContext([tool], { maxConcurrency: 3 }),
    );
    await releaseAll(10);
    const results = await pending;
    expect(state.peak).toBe(3);
    expect(results.map((r) => r.status === 'success' && r.output)).toEqual(
      Array.from({ length: 10 }, (_, i) => i * 10),
    );
  });

  it('runs a call id that appears twice in one step once, and answers the second with an error', async () => {
    const runs: number[] = [];
    const tool = defineTool({ name: 't', description: 'T.', input, execute: ({ n }) => runs.push(n) });
    const results = await executeToolBatch(
      [call('t', { n: 1 }, 'same'), call('t', { n: 2 }, 'same')],
      createTestContext([tool]),
    );
    expect(runs).toEqual([1]);
    expect(results[1]).toMatchObject({ status: 'error', error: { category: 'validation_error' } });
  });

  it('turns a stage that throws into a server_error result for that call only', async () => {
    const tool = defineTool({ name: 't', description: 'T.', input, execute: ({ n }) => n });
    // Throws before it returns a promise at all.
    const broken: Guard = (state) => {
      if (state.request.callId === 'b')
        throw new Error('stage bug sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7cDe0fGh3i');
      return Promise.resolve(undefined);
    };
    const results = await executeToolBatch(
      [call('t', { n: 1 }, 'a'), call('t', { n: 2 }, 'b')],
      createTestContext([tool]),
      { pipeline: { ...defaultToolPipeline, guards: [broken, ...defaultToolPipeline.guards] } },
    );
    expect(results.map((r) => r.status)).toEqual(['success', 'error']);
    expect(results[1]?.contextText).toContain('The tool pipeline failed: stage bug [REDACTED:openai-key]');
  });

  it('turns a stage whose promise rejects into a server_error result too', async () => {
    const tool = defineTool({ name: 't', description: 'T.', input, execute: ({ n }) => n });
    const broken: Guard = async (state) => {
      if (state.request.callId === 'b') throw new Error('late stage bug');
      return undefined;
    };
    const results = await executeToolBatch(
      [call('t', { n: 1 }, 'a'), call('t', { n: 2 }, 'b')],
      createTestContext([tool]),
      { pipeline: { ...defaultToolPipeline, guards: [broken, ...defaultToolPipeline.guards] } },
    );
    expect(results.map((r) => r.status)).toEqual(['success', 'error']);
    expect(results[1]?.contextText).toContain('The tool pipeline failed: late stage bug');
  });

  it('answers an empty batch with no results', async () => {
    expect(await executeToolBatch([], createTestContext([]))).toEqual([]);
  });
});
