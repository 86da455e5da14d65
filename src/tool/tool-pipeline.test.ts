import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ToolCallResult } from '../spec/index.js';
import { defineTool } from './define-tool.js';
import { defaultToolStages, executeToolBatch } from './execute-tool-batch.js';
import { call, createTestContext } from './fixtures/batch-context.js';
import { createToolCallState, type ToolCallState } from './tool-call-state.js';
import { afterStage, runStages, type ToolStage } from './tool-pipeline.js';
import { successResult } from './tool-results.js';

/** A post-processing stage that appends its name to the result's context text, so order shows. */
function tag(name: string, trace: string[]): ToolStage {
  return afterStage((_state, result) => {
    trace.push(name);
    return { ...result, contextText: `${result.contextText}>${name}` };
  });
}

/** The last stage: answers with the call's attempt count, counting how often it ran. */
function answering(runs: { count: number }): ToolStage {
  return (state) => {
    runs.count += 1;
    return Promise.resolve(successResult(state, `run ${runs.count}`));
  };
}

function stateFor(): ToolCallState {
  return createToolCallState(call('any'), createTestContext([]));
}

/** Runs the stages nested by hand, each through its own function form: what `runStages` must equal. */
function nested(stages: readonly ToolStage[], state: ToolCallState): Promise<ToolCallResult> {
  const at =
    (index: number): ((s: ToolCallState) => Promise<ToolCallResult>) =>
    (s) =>
      (stages[index] as ToolStage)(s, at(index + 1));
  return at(0)(state);
}

describe('runStages with post-processing stages', () => {
  it('applies a row of after-stages innermost first, as the nested stages would', async () => {
    const fusedTrace: string[] = [];
    const fused = [tag('a', fusedTrace), tag('b', fusedTrace), tag('c', fusedTrace), answering({ count: 0 })];
    const nestedTrace: string[] = [];
    const byHand = [
      tag('a', nestedTrace),
      tag('b', nestedTrace),
      tag('c', nestedTrace),
      answering({ count: 0 }),
    ];

    const result = await runStages(fused, stateFor());

    expect(result.contextText).toBe('run 1>c>b>a');
    expect(fusedTrace).toEqual(['c', 'b', 'a']);
    expect(await nested(byHand, stateFor())).toEqual(result);
    expect(nestedTrace).toEqual(fusedTrace);
  });

  it('gives a hook that runs `next` again only the stages inside it, and applies the outer hooks to that answer', async () => {
    const trace: string[] = [];
    const runs = { count: 0 };
    // Asks for one more run of what is inside it, after a pause, as the retry stage does.
    const again = afterStage((state, _result, next) => {
      trace.push('again');
      return new Promise<void>((resolve) => setTimeout(resolve, 1)).then(() => next(state));
    });
    const stages = [tag('outer', trace), again, tag('inner', trace), answering(runs)];

    const result = await runStages(stages, stateFor());

    expect(runs.count).toBe(2);
    expect(result.contextText).toBe('run 2>inner>outer');
    expect(trace).toEqual(['inner', 'again', 'inner', 'outer']);
  });

  it('keeps a stage without a hook where it stands between two rows', async () => {
    const trace: string[] = [];
    const plain: ToolStage = (state, next) =>
      next(state).then((result) => {
        trace.push('plain');
        return { ...result, contextText: `${result.contextText}>plain` };
      });
    const stages = [tag('a', trace), plain, tag('b', trace), tag('c', trace), answering({ count: 0 })];

    expect((await runStages(stages, stateFor())).contextText).toBe('run 1>c>b>plain>a');
  });

  it('turns a hook that throws into the pipeline failure result, with no call lost', async () => {
    const tool = defineTool({
      name: 'echo',
      description: 'Echoes.',
      input: z.object({}),
      execute: () => 'fine',
    });
    const broken = afterStage(() => {
      throw new Error('hook broke');
    });
    const stages = [...defaultToolStages.slice(0, -1), broken, ...defaultToolStages.slice(-1)];

    const [result] = await executeToolBatch([call('echo')], createTestContext([tool]), { stages });

    expect(result).toMatchObject({ status: 'error', error: { category: 'server_error' } });
    expect(result?.contextText).toContain('hook broke');
  });
});

describe('the default pipeline after a retry', () => {
  it('redacts and validates the answer of the attempt that succeeded, not only the first one', async () => {
    let attempts = 0;
    const tool = defineTool({
      name: 'fetch_key',
      description: 'Fails once, then returns a secret.',
      input: z.object({}),
      output: z.object({ key: z.string() }),
      idempotent: true,
      timeoutMs: 5_000,
      execute: () => {
        attempts += 1;
        if (attempts === 1) throw new Error('connection reset');
        return { key: 'sk-live-abcdefghijklmnopqrstuvwxyz123456' };
      },
    });
    const context = createTestContext([tool]);

    const [result] = await context.clock.runUntil(executeToolBatch([call('fetch_key')], context));

    expect(attempts).toBe(2);
    expect(result?.status).toBe('success');
    expect(JSON.stringify(result)).not.toContain('sk-live-abcdefghijklmnopqrstuvwxyz123456');
  });

  it('refuses a retried answer that breaks the output schema', async () => {
    let attempts = 0;
    const tool = defineTool<unknown, unknown>({
      name: 'count',
      description: 'Fails once, then answers with the wrong shape.',
      input: z.object({}) as never,
      output: z.object({ n: z.number() }) as never,
      idempotent: true,
      timeoutMs: 5_000,
      execute: () => {
        attempts += 1;
        if (attempts === 1) throw new Error('connection reset');
        return { n: 'three' };
      },
    });
    const context = createTestContext([tool]);

    const [result] = await context.clock.runUntil(executeToolBatch([call('count')], context));

    expect(attempts).toBe(2);
    expect(result).toMatchObject({ status: 'error', error: { category: 'server_error' } });
    expect(result?.contextText).toContain('output schema');
  });
});
