import { describe, expect, it } from 'vitest';
import { ConfigurationError, SnapshotError } from '../errors/index.js';
import { createThreadSnapshot } from '../flow/index.js';
import type { PlanState } from '../spec/index.js';
import { createSequentialIdGenerator } from '../util/index.js';
import { createTodoList } from './create-todo-list.js';
import { defaultExecutionConfig, resolveExecutionConfig } from './execution-config.js';
import { readActivePlan, readPlanState, writePlanState } from './plan-state.js';
import { selectBestCandidate } from './search-plans.js';
import { createStepOutput, latestStepOutputs } from './step-output.js';

describe('resolveExecutionConfig', () => {
  it('takes the call over the thread over the agent over the defaults', () => {
    expect(resolveExecutionConfig({})).toEqual(defaultExecutionConfig);
    const resolved = resolveExecutionConfig({
      agent: { maxIterations: 8, delegation: true, complex: { maxIterations: 40 } },
      thread: { maxIterations: 3, maxStepOutputChars: 1_000 },
      call: { maxIterations: 2 },
    });
    expect(resolved).toMatchObject({ maxStepOutputChars: 1_000, delegation: true });
    expect(resolved.skillLoop.simple).toMatchObject({ maxIterations: 2, enforcementRetries: 2 });
    // A later layer's bound for both columns wins over an earlier layer's for one column.
    expect(resolved.skillLoop.complex).toMatchObject({ maxIterations: 2, enforcementRetries: 2 });
    expect(
      resolveExecutionConfig({ agent: { maxIterations: 8 }, call: { complex: { maxIterations: 30 } } })
        .skillLoop,
    ).toMatchObject({ simple: { maxIterations: 8 }, complex: { maxIterations: 30 } });
  });

  it('refuses nonsense with a ConfigurationError listing every problem', () => {
    let error: unknown;
    try {
      resolveExecutionConfig({
        call: { maxIterations: 0, enforcementRetries: 1.5, delegation: 'yes' as unknown as boolean },
      });
    } catch (e) {
      error = e;
    }
    expect(ConfigurationError.isInstance(error)).toBe(true);
    expect((error as ConfigurationError).problems).toEqual([
      'call.maxIterations must be a whole number ≥ 1 (got 0)',
      'call.enforcementRetries must be a whole number ≥ 0 (got 1.5)',
      'call.delegation must be true or false (got "yes")',
    ]);
  });
});

describe('step output table', () => {
  const item = createTodoList([{ description: 'Look up the weather' }], {
    ids: createSequentialIdGenerator(),
  })[0];
  if (!item) throw new Error('no item');

  it('keeps the answer and the full tool outputs, up to the bound, head and tail', () => {
    const entry = createStepOutput({
      planId: 'p',
      item,
      result: { text: 'It is 21 °C.', city: 'Oslo' },
      toolResults: [
        { status: 'success', callId: 'c1', toolName: 'weather', output: { celsius: 21 }, contextText: '…' },
        { status: 'success', callId: 'c2', toolName: 'update_plan', output: 'ok', contextText: 'ok' },
      ],
      maxChars: 60_000,
      now: 5,
    });
    expect(entry.output).toBe(
      'It is 21 °C.\n{"city":"Oslo"}\n\nTool results:\n- weather (success): {"celsius":21}',
    );
    const long = createStepOutput({
      planId: 'p',
      item,
      result: `${'a'.repeat(70_000)}END`,
      toolResults: [],
      maxChars: 60_000,
      now: 5,
    });
    expect(long.output.length).toBeLessThanOrEqual(60_000);
    expect(long.output.endsWith('END')).toBe(true);
    expect(long.omittedChars).toBeGreaterThan(10_000);
    expect(long.output).toContain(`[${long.omittedChars} characters of this step's output omitted]`);
  });

  it('keeps the latest entry per item', () => {
    const first = createStepOutput({
      planId: 'p',
      item,
      result: 'one',
      toolResults: [],
      maxChars: 100,
      now: 1,
    });
    const second = { ...first, output: 'two' };
    expect([...latestStepOutputs([first, second]).values()].map((e) => e.output)).toEqual(['two']);
  });
});

describe('plan state in the snapshot', () => {
  const plan = (): PlanState => ({
    specVersion: 1,
    id: 'flow_1',
    objective: 'o',
    title: 't',
    status: 'active',
    items: createTodoList([{ description: 'x' }], { ids: createSequentialIdGenerator() }),
    revision: 1,
    rounds: 0,
    failurePolicy: 'skip-and-continue',
    startSeq: 0,
  });

  it('round-trips through JSON and is read back checked', () => {
    const snapshot = writePlanState(createThreadSnapshot('t1'), plan());
    const reread = JSON.parse(JSON.stringify(snapshot));
    expect(readPlanState(reread)).toEqual(plan());
    expect(readActivePlan(reread, 'flow_1')?.id).toBe('flow_1');
    expect(readActivePlan(reread, 'flow_2')).toBeUndefined();
  });

  it('fails loudly on a corrupt plan', () => {
    const snapshot = createThreadSnapshot('t1');
    snapshot.extensions.plan = { ...plan(), items: [{ id: 'x', status: 'exploded' }] };
    expect(() => readPlanState(snapshot)).toThrow(SnapshotError);
  });
});

describe('tree search selection', () => {
  it('keeps the best-scored candidate; ties and missing scores favour the earlier one', () => {
    expect(
      selectBestCandidate(3, [
        { candidate: 1, score: 8, reason: '' },
        { candidate: 2, score: 6, reason: '' },
      ]),
    ).toBe(1);
    expect(
      selectBestCandidate(2, [
        { candidate: 0, score: 5, reason: '' },
        { candidate: 1, score: 5, reason: '' },
      ]),
    ).toBe(0);
    expect(selectBestCandidate(2, [])).toBe(0);
  });
});
