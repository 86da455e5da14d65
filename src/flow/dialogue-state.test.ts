import { describe, expect, it } from 'vitest';
import { StackDepthError } from '../errors/index.js';
import type { FlowInstance } from '../spec/index.js';
import { checkDialogueInvariants } from './check-invariants.js';
import {
  createDialogueState,
  type DialogueEvent,
  type DialogueState,
  transitionDialogue,
} from './dialogue-state.js';
import { diffDialogue } from './diff-dialogue.js';

const flow = (id: string, name = id, slots: Record<string, unknown> = {}): FlowInstance => ({
  id,
  name,
  status: 'active',
  slots,
  retries: 0,
});

/** Applies events one by one and checks invariants 1–3 after every transition. */
function run(events: DialogueEvent[], start: DialogueState = createDialogueState()): DialogueState {
  let state = start;
  for (const event of events) {
    state = transitionDialogue(state, event);
    expect(checkDialogueInvariants(state), JSON.stringify(event)).toEqual([]);
  }
  return state;
}

const shape = (state: DialogueState) => state.stack.map((f) => `${f.name}:${f.status}`);

describe('dialogue state transitions', () => {
  it('push: the new flow is Active on top, the old top Pending; naturalBirth ends', () => {
    const state = run([
      { type: 'push', flow: flow('a') },
      { type: 'push', flow: flow('b') },
    ]);
    expect(shape(state)).toEqual(['a:pending', 'b:active']);
    expect(state.flags.naturalBirth).toBe(false);
  });

  it('push de-duplicates a flow already Pending: it moves to the top with merged slots', () => {
    const state = run([
      { type: 'push', flow: flow('a1', 'query', { table: 'sales' }) },
      { type: 'push', flow: flow('b', 'chart') },
      { type: 'push', flow: flow('a2', 'query', { limit: 5 }) },
    ]);
    expect(shape(state)).toEqual(['chart:pending', 'query:active']);
    expect(state.stack.at(-1)).toMatchObject({ id: 'a1', slots: { table: 'sales', limit: 5 } });
  });

  it('push de-duplicates a flow already Active without growing the stack', () => {
    const state = run([
      { type: 'push', flow: flow('a1', 'query') },
      { type: 'push', flow: flow('a2', 'query', { x: 1 }) },
    ]);
    expect(state.stack).toHaveLength(1);
    expect(state.stack[0]?.slots).toEqual({ x: 1 });
  });

  it('push past the depth bound is a typed error and leaves the state alone', () => {
    let state = createDialogueState();
    for (let i = 0; i < 3; i++)
      state = transitionDialogue(state, { type: 'push', flow: flow(`f${i}`) }, { maxDepth: 3 });
    const before = structuredClone(state);
    expect(() => transitionDialogue(state, { type: 'push', flow: flow('x') }, { maxDepth: 3 })).toThrow(
      StackDepthError,
    );
    expect(state).toEqual(before);
  });

  it('a plan flow tags itself with its own id; hasPlan holds while the plan is open', () => {
    const state = run([
      { type: 'push', flow: flow('p', 'plan_report'), intent: 'plan' },
      { type: 'push', flow: { ...flow('s1', 'query'), planId: 'p' } },
      { type: 'push', flow: { ...flow('s2', 'chart'), planId: 'p' } },
    ]);
    expect(state.flags.hasPlan).toBe(true);
    expect(state.stack.map((f) => f.planId)).toEqual(['p', 'p', 'p']);
    const abandoned = run([{ type: 'invalidate', flowId: 'p' }, { type: 'pop-finished' }], state);
    expect(abandoned.stack).toEqual([]);
    expect(abandoned.flags.hasPlan).toBe(false);
  });

  it('invalidating a sub-flow leaves its plan and siblings alone', () => {
    const state = run([
      { type: 'push', flow: flow('p', 'plan_report'), intent: 'plan' },
      { type: 'push', flow: { ...flow('s1', 'query'), planId: 'p' } },
      { type: 'push', flow: { ...flow('s2', 'chart'), planId: 'p' } },
      { type: 'invalidate' },
      { type: 'pop-finished' },
    ]);
    expect(shape(state)).toEqual(['plan_report:pending', 'query:active']);
  });

  it('complete and pop-finished: the flow that waited becomes Active; keepGoing clears on an empty stack', () => {
    let state = run([
      { type: 'push', flow: flow('a') },
      { type: 'push', flow: flow('b') },
      { type: 'set-flags', flags: { keepGoing: true } },
      { type: 'complete', result: { ok: true } },
    ]);
    expect(state.stack.at(-1)).toMatchObject({ status: 'completed', result: { ok: true } });
    state = run([{ type: 'pop-finished' }], state);
    expect(shape(state)).toEqual(['a:active']);
    expect(state.flags.keepGoing).toBe(true);
    state = run([{ type: 'complete', result: 1 }, { type: 'pop-finished' }], state);
    expect(state.stack).toEqual([]);
    expect(state.flags.keepGoing).toBe(false);
  });

  it('fallback maps slots by name, carries metadata and plan id, and invalidates and pops the old flow', () => {
    const start = run([
      { type: 'push', flow: flow('w', 'waiting') },
      {
        type: 'push',
        flow: {
          ...flow('q', 'query', { table: 'staging', question: 'x', limit: 3 }),
          metadata: { origin: 'user' },
        },
      },
    ]);
    const state = run(
      [
        {
          type: 'fallback',
          flow: flow('c', 'create_table', { columns: ['a'] }),
          slotNames: ['table', 'columns'],
        },
      ],
      start,
    );
    expect(shape(state)).toEqual(['waiting:pending', 'create_table:active']);
    expect(state.stack.at(-1)).toMatchObject({
      slots: { table: 'staging', columns: ['a'] },
      metadata: { origin: 'user' },
    });
    expect(state.stack.at(-1)?.slots).not.toHaveProperty('question');
  });

  it('fill-slots, recovery, confirm change one flow and nothing else', () => {
    const state = run([
      { type: 'push', flow: flow('a') },
      { type: 'push', flow: flow('b') },
      { type: 'fill-slots', flowId: 'a', slots: { city: 'Oslo' } },
      { type: 'recovery', flowId: 'b', step: 'retry' },
      { type: 'recovery', flowId: 'b', step: 'gather-context' },
      { type: 'confirm', flowId: 'b', hash: 'h1' },
    ]);
    expect(state.stack[0]).toMatchObject({ slots: { city: 'Oslo' }, retries: 0 });
    expect(state.stack[1]).toMatchObject({
      retries: 1,
      recovery: ['retry', 'gather-context'],
      confirmed: 'h1',
    });
  });

  it('schedules background flows Pending, updates their status, and prunes finished ones', () => {
    let state = run([
      { type: 'schedule', flows: [flow('i1', 'profile'), { ...flow('i2', 'notes'), dependsOn: ['i1'] }] },
    ]);
    expect(state.background.map((f) => f.status)).toEqual(['pending', 'pending']);
    expect(state.stack).toEqual([]);
    state = run(
      [
        { type: 'background-status', flowId: 'i1', status: 'completed', result: 'ok' },
        { type: 'prune-background' },
      ],
      state,
    );
    expect(state.background.map((f) => f.id)).toEqual(['i2']);
  });

  it('never changes its input', () => {
    const start = run([{ type: 'push', flow: flow('a') }]);
    const frozen = structuredClone(start);
    transitionDialogue(start, { type: 'complete', result: 1 });
    transitionDialogue(start, { type: 'fallback', flow: flow('b'), slotNames: [] });
    transitionDialogue(start, { type: 'set-flags', flags: { hasIssues: true } });
    expect(start).toEqual(frozen);
  });
});

describe('invariants', () => {
  it('reports two Active flows, an Active flow below the top, and a Pending top', () => {
    const s = createDialogueState();
    expect(checkDialogueInvariants({ ...s, stack: [flow('a'), flow('b')] })[0]).toContain(
      '2 flows are Active',
    );
    expect(
      checkDialogueInvariants({ ...s, stack: [flow('a'), { ...flow('b'), status: 'pending' }] }),
    ).toContain("the Active flow 'a' is not on top");
    expect(checkDialogueInvariants({ ...s, stack: [{ ...flow('a'), status: 'pending' }] })[0]).toContain(
      'not Active',
    );
  });

  it('at the end of a turn, finished flows must be gone and keepGoing clear', () => {
    const s = createDialogueState();
    const state = {
      ...s,
      stack: [{ ...flow('a'), status: 'completed' as const }],
      flags: { ...s.flags, keepGoing: true },
    };
    expect(checkDialogueInvariants(state)).toEqual([]);
    expect(checkDialogueInvariants(state, { turnEnd: true })).toHaveLength(2);
  });

  it('reports duplicates and orphaned or misplaced plan sub-flows', () => {
    const s = createDialogueState();
    expect(
      checkDialogueInvariants({
        ...s,
        stack: [{ ...flow('a1', 'q'), status: 'pending' }, flow('a2', 'q')],
      })[0],
    ).toContain('open twice');
    expect(checkDialogueInvariants({ ...s, stack: [{ ...flow('s'), planId: 'gone' }] })[0]).toContain(
      'not on the stack',
    );
    const misplaced = [
      { ...flow('s'), planId: 'p', status: 'pending' as const },
      { ...flow('p'), planId: 'p' },
    ];
    expect(checkDialogueInvariants({ ...s, stack: misplaced })[0]).toContain('sits below its plan');
  });

  it('hold after every transition of 300 random operation sequences', () => {
    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const names = ['query', 'chart', 'transform', 'clarify', 'plan'];
    for (let sequence = 0; sequence < 300; sequence++) {
      let state = createDialogueState();
      let next = 0;
      for (let step = 0; step < 25; step++) {
        const open = state.stack.filter((f) => f.status === 'active' || f.status === 'pending');
        const planOwner = state.stack.find(
          (f) => f.name === 'plan' && f.status !== 'invalid' && f.status !== 'completed',
        );
        const choice = random(8);
        const events: DialogueEvent[] = [
          { type: 'push', flow: flow(`f${next++}`, names[random(4)] as string) },
          planOwner
            ? {
                type: 'push',
                flow: { ...flow(`f${next++}`, names[random(4)] as string), planId: planOwner.id },
              }
            : { type: 'push', flow: flow(`f${next++}`, 'plan'), intent: 'plan' },
          { type: 'complete', result: step },
          {
            type: 'invalidate',
            ...(open.length > 0 ? { flowId: (open[random(open.length)] as FlowInstance).id } : {}),
          },
          { type: 'pop-finished' },
          { type: 'fallback', flow: flow(`f${next++}`, names[random(4)] as string), slotNames: ['table'] },
          { type: 'fill-slots', slots: { table: `t${step}` } },
          { type: 'set-flags', flags: { hasIssues: random(2) === 0 } },
        ];
        const event = events[choice] as DialogueEvent;
        try {
          state = transitionDialogue(state, event);
        } catch (error) {
          expect(StackDepthError.isInstance(error)).toBe(true);
          continue;
        }
        expect(checkDialogueInvariants(state), `sequence ${sequence} step ${step} ${event.type}`).toEqual([]);
        expect(state.stack.length).toBeLessThanOrEqual(8);
        if (event.type === 'pop-finished')
          expect(checkDialogueInvariants(state, { turnEnd: !state.flags.keepGoing })).toEqual([]);
      }
    }
  });
});

describe('diffDialogue', () => {
  it('records pushes, pops, status and slot changes, flags and background scheduling', () => {
    const before = run([
      { type: 'push', flow: flow('a', 'query', { table: 'sales' }) },
      { type: 'push', flow: flow('b', 'chart') },
    ]);
    const after = run(
      [
        { type: 'complete', result: 1 },
        { type: 'pop-finished' },
        { type: 'fill-slots', flowId: 'a', slots: { limit: 5 } },
        { type: 'push', flow: flow('c', 'transform', { table: 'sales' }) },
        { type: 'set-flags', flags: { hasIssues: true } },
        { type: 'schedule', flows: [flow('i', 'profile')] },
      ],
      before,
    );
    expect(diffDialogue(before, after)).toEqual([
      { op: 'pop', flowId: 'b', name: 'chart', status: 'active' },
      { op: 'slots', flowId: 'a', name: 'query', set: { limit: 5 }, cleared: [] },
      { op: 'push', flowId: 'c', name: 'transform' },
      { op: 'slots', flowId: 'c', name: 'transform', set: { table: 'sales' }, cleared: [] },
      { op: 'flags', set: { hasIssues: true } },
      { op: 'schedule', flowId: 'i', name: 'profile', dependsOn: [] },
    ]);
  });

  it('records cleared slots, status changes, plan ids and background status; nothing when nothing changed', () => {
    const base: DialogueState = {
      stack: [
        { ...flow('a', 'query', { table: 'sales', range: { from: 1 }, note: 'x' }), status: 'active' },
        { ...flow('p', 'step'), planId: 'plan-1', status: 'pending' },
      ],
      flags: { keepGoing: false, hasIssues: false, hasPlan: false, naturalBirth: false },
      background: [{ ...flow('i', 'profile'), status: 'pending' }],
    };
    const copy: DialogueState = JSON.parse(JSON.stringify(base));
    expect(diffDialogue(base, copy)).toEqual([]);
    const after: DialogueState = {
      stack: [
        // Same values in new objects are not a change; a value that differs is, and one that went is cleared.
        { ...flow('a', 'query', { table: 'sales', range: { from: 2 } }), status: 'completed' },
        { ...flow('q', 'next'), planId: 'plan-1', status: 'active' },
      ],
      flags: { ...base.flags, keepGoing: true },
      background: [{ ...flow('i', 'profile'), status: 'completed' }],
    };
    expect(diffDialogue(base, after)).toEqual([
      { op: 'pop', flowId: 'p', name: 'step', status: 'pending' },
      { op: 'status', flowId: 'a', name: 'query', from: 'active', to: 'completed' },
      { op: 'slots', flowId: 'a', name: 'query', set: { range: { from: 2 } }, cleared: ['note'] },
      { op: 'push', flowId: 'q', name: 'next', planId: 'plan-1' },
      { op: 'flags', set: { keepGoing: true } },
      { op: 'background', flowId: 'i', name: 'profile', status: 'completed' },
    ]);
  });
});
