import { describe, expect, it } from 'vitest';
import { call, createTestContext } from '../tool/fixtures/batch-context.js';
import { executeToolBatch } from '../tool/index.js';
import { systemClock } from '../util/index.js';
import { type SkillWorkspace, sharedComponentTools } from './component-tools.js';

function workspace(flowId: string): SkillWorkspace {
  return {
    history: [],
    scratchpad: [],
    preferences: {},
    stack: [{ id: flowId, name: flowId, status: 'active', slots: {}, retries: 0 }],
    previous: [],
    flowId,
    flowName: flowId,
    clock: systemClock,
    maxScratchpadEntries: 10,
    written: [],
  };
}

describe('shared component tools', () => {
  it('write to the workspace of the batch they run in, even when two runs call them at once', async () => {
    const first = workspace('flow_a');
    const second = workspace('flow_b');
    const note = (text: string, callId: string) =>
      call('memory_manager', { operation: 'write_scratchpad', text }, callId);
    const [a, b] = await Promise.all([
      executeToolBatch(
        [note('from a', 'c1')],
        createTestContext([...sharedComponentTools()], { runScope: first }),
      ),
      executeToolBatch(
        [note('from b', 'c2')],
        createTestContext([...sharedComponentTools()], { runScope: second }),
      ),
    ]);
    expect(a?.[0]).toMatchObject({ status: 'success', output: { written: 'flow_a:note:1' } });
    expect(b?.[0]).toMatchObject({ status: 'success', output: { written: 'flow_b:note:1' } });
    expect(first.scratchpad.map((e) => e.text)).toEqual(['from a']);
    expect(second.scratchpad.map((e) => e.text)).toEqual(['from b']);
  });

  it('fail as a tool error, not a crash, in a batch that has no run scope', async () => {
    const context = createTestContext([...sharedComponentTools()]);
    // flow_stack is idempotent, so the failure is retried (on the test's clock) before it is reported.
    const [result] = await context.clock.runUntil(
      executeToolBatch([call('flow_stack', { which: 'current' })], context),
    );
    expect(result).toMatchObject({ status: 'error', error: { category: 'server_error' } });
    expect(result?.status === 'error' && result.error.message).toContain('only inside a flow run');
  });
});
