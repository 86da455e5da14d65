import { describe, expect, it } from 'vitest';
import { StackDepthError } from '../errors/index.js';
import type { FlowInstance } from '../spec/index.js';
import {
  activeFlow,
  completeActiveFlow,
  invalidateActiveFlow,
  popFinishedFlows,
  pushFlow,
} from './flow-stack.js';

const flow = (id: string, name = id): FlowInstance => ({ id, name, status: 'active', slots: {}, retries: 0 });

function assertInvariants(stack: FlowInstance[]): void {
  const active = stack.filter((f) => f.status === 'active');
  if (stack.length > 0 && stack.some((f) => f.status === 'pending' || f.status === 'active')) {
    expect(active).toHaveLength(1);
    expect(stack.at(-1)?.status).toBe('active');
  }
}

describe('flow stack', () => {
  it('keeps exactly one Active flow on top; pushing makes the old top Pending', () => {
    let stack = pushFlow([], flow('a'));
    stack = pushFlow(stack, flow('b'));
    expect(stack.map((f) => [f.id, f.status])).toEqual([
      ['a', 'pending'],
      ['b', 'active'],
    ]);
    expect(activeFlow(stack)?.id).toBe('b');
    assertInvariants(stack);
  });

  it('de-duplicates a flow that is already Pending by moving it to the top with merged slots', () => {
    let stack = pushFlow([], { ...flow('a1', 'search'), slots: { city: 'Oslo' } });
    stack = pushFlow(stack, flow('b'));
    stack = pushFlow(stack, { ...flow('a2', 'search'), slots: { date: '2026-01-01' } });
    expect(stack.map((f) => [f.id, f.status])).toEqual([
      ['b', 'pending'],
      ['a1', 'active'],
    ]);
    expect(stack.at(-1)?.slots).toEqual({ city: 'Oslo', date: '2026-01-01' });
    assertInvariants(stack);
  });

  it('refuses a push past the depth bound with a typed error and leaves the stack alone', () => {
    let stack: FlowInstance[] = [];
    for (let i = 0; i < 3; i++) stack = pushFlow(stack, flow(`f${i}`), { maxDepth: 3 });
    const before = structuredClone(stack);
    expect(() => pushFlow(stack, flow('x'), { maxDepth: 3 })).toThrow(StackDepthError);
    expect(stack).toEqual(before);
  });

  it('pops Completed and Invalid flows and activates the flow that waited', () => {
    let stack = pushFlow(pushFlow([], flow('a')), flow('b'));
    stack = completeActiveFlow(stack, { ok: true });
    const popped = popFinishedFlows(stack);
    expect(popped.popped.map((f) => f.id)).toEqual(['b']);
    expect(popped.stack.map((f) => [f.id, f.status])).toEqual([['a', 'active']]);
    const invalid = popFinishedFlows(invalidateActiveFlow(popped.stack));
    expect(invalid.stack).toEqual([]);
  });

  it('survives a JSON round trip', () => {
    const stack = pushFlow(pushFlow([], { ...flow('a'), planId: 'p1' }), flow('b'));
    expect(JSON.parse(JSON.stringify(stack))).toEqual(stack);
  });
});
