import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ToolCallResult } from '../spec/index.js';
import { defineTool } from './define-tool.js';
import { executeToolBatch } from './execute-tool-batch.js';
import { call, createTestContext } from './fixtures/batch-context.js';
import { createToolCallState, type ToolCallState } from './tool-call-state.js';
import { defaultToolPipeline, runPipeline } from './tool-pipeline.js';
import { errorResult, successResult } from './tool-results.js';
import type { Guard, ToolPipeline, Transform } from './tool-stage.js';

function stateFor(): ToolCallState {
  return createToolCallState(call('any'), createTestContext([]));
}

/** A pipeline of stages that write their names to `trace`; `answerAt` names the guard that answers. */
function tracedPipeline(trace: string[], answerAt?: string): ToolPipeline {
  const guard =
    (name: string): Guard =>
    async (state) => {
      trace.push(name);
      return name === answerAt ? errorResult(state, 'auth_error', `refused by ${name}`, false) : undefined;
    };
  const transform =
    (name: string): Transform =>
    async (_state, result) => {
      trace.push(name);
      return { ...result, contextText: `${result.contextText}>${name}` };
    };
  return {
    checks: [guard('resolve'), guard('parse')],
    guards: [guard('gate'), guard('journal start')],
    execute: async (state) => {
      trace.push('execute');
      return successResult(state, 'ran');
    },
    transforms: [transform('retry'), transform('journal result'), transform('cap')],
  };
}

describe('runPipeline', () => {
  it('runs the checks, the guards, one execute and the transforms, each row in its order', async () => {
    const trace: string[] = [];
    const result = await runPipeline(stateFor(), tracedPipeline(trace));
    expect(trace).toEqual([
      'resolve',
      'parse',
      'gate',
      'journal start',
      'execute',
      'retry',
      'journal result',
      'cap',
    ]);
    expect(result.contextText).toBe('ran>retry>journal result>cap');
  });

  it("takes a guard's answer instead of running the tool, and passes it through the transforms", async () => {
    const trace: string[] = [];
    const state = stateFor();
    const result = await runPipeline(state, tracedPipeline(trace, 'gate'));
    expect(trace).toEqual(['resolve', 'parse', 'gate', 'retry', 'journal result', 'cap']);
    expect(result.contextText).toContain('refused by gate');
    expect(state.executed).toBe(false);
  });

  it("answers with a check's refusal as it is: nothing was begun for the call", async () => {
    const trace: string[] = [];
    const result = await runPipeline(stateFor(), tracedPipeline(trace, 'parse'));
    expect(trace).toEqual(['resolve', 'parse']);
    expect(result.contextText).toMatch(/refused by parse$/);
  });

  it('hands a transform the execute step, so that it can run the tool again, and later transforms see that answer', async () => {
    let runs = 0;
    const again: Transform = async (state, result, execute) =>
      result.status === 'error' ? execute(state) : result;
    const tag: Transform = async (_state, result) => ({
      ...result,
      contextText: `${result.contextText}>tag`,
    });
    const pipeline: ToolPipeline = {
      checks: [],
      guards: [],
      execute: async (state): Promise<ToolCallResult> => {
        runs += 1;
        return runs === 1 ? errorResult(state, 'server_error', 'flaky') : successResult(state, `run ${runs}`);
      },
      transforms: [again, tag],
    };
    const result = await runPipeline(stateFor(), pipeline);
    expect(runs).toBe(2);
    expect(result).toMatchObject({ status: 'success', contextText: 'run 2>tag' });
  });

  it('turns a transform that throws into the pipeline failure result, with no call lost', async () => {
    const tool = defineTool({
      name: 'echo',
      description: 'Echoes.',
      input: z.object({}),
      execute: () => 'fine',
    });
    const broken: Transform = async () => {
      throw new Error('transform broke');
    };
    const pipeline = { ...defaultToolPipeline, transforms: [broken, ...defaultToolPipeline.transforms] };

    const [result] = await executeToolBatch([call('echo')], createTestContext([tool]), { pipeline });

    expect(result).toMatchObject({ status: 'error', error: { category: 'server_error' } });
    expect(result?.contextText).toContain('transform broke');
  });
});

describe('the default pipeline', () => {
  it('reads in the order of DESIGN.md §4, with the stages that keep its invariants in between', () => {
    const names = (stages: readonly { name: string }[]) => stages.map((stage) => stage.name);
    expect(names(defaultToolPipeline.checks)).toEqual(['resolveTool', 'parseArguments', 'validateInput']);
    expect(names(defaultToolPipeline.guards)).toEqual([
      'replayJournaled',
      'startAudit',
      'gateCapability',
      'requireApproval',
      'reuseCachedResult',
      'limitRate',
      'startSimulation',
      'awaitFeedback',
      'startJournal',
      'snapshotFiles',
    ]);
    expect(defaultToolPipeline.execute.name).toBe('executeWithTimeout');
    expect(names(defaultToolPipeline.transforms)).toEqual([
      'retryCall',
      'validateOutput',
      'redactResult',
      'settleFileChanges',
      'finishJournal',
      'attachSimulation',
      'cacheResult',
      'completeAudit',
      'capResultSize',
    ]);
  });

  it('audits a call the gate refuses as denied, and journals nothing for it', async () => {
    let runs = 0;
    const tool = defineTool({
      name: 'wire',
      description: 'Sends money.',
      input: z.object({}),
      capability: 'privileged',
      execute: () => {
        runs += 1;
        return 'sent';
      },
    });
    const context = createTestContext([tool], { capabilities: { maxLevel: 'restricted' } });

    const [result] = await executeToolBatch([call('wire')], context);

    expect(result).toMatchObject({ status: 'error', error: { category: 'auth_error' } });
    expect(runs).toBe(0);
    expect((await context.store?.readAudit())?.map((row) => row.status)).toEqual(['denied']);
    expect(await context.store?.listJournal('thread-1')).toEqual([]);
  });

  it('does not retry a refusal by a guard, even one a retry would take for the other side doing nothing', async () => {
    let runs = 0;
    const tool = defineTool({
      name: 'ping',
      description: 'Pings.',
      input: z.object({}),
      idempotent: true,
      rateLimit: { limit: 1, windowMs: 60_000 },
      execute: () => {
        runs += 1;
        return 'pong';
      },
    });
    const context = createTestContext([tool]);

    const [first] = await executeToolBatch([call('ping', {}, 'c1')], context);
    const [second] = await context.clock.runUntil(executeToolBatch([call('ping', {}, 'c2')], context));

    expect(first?.status).toBe('success');
    expect(second).toMatchObject({ status: 'error', error: { category: 'rate_limit' } });
    expect(runs).toBe(1);
    expect(second?.status === 'error' && second.error.attempts).toBeUndefined();
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
