import { describe, expect, it } from 'vitest';
import { createDialogueState, type DialogueState } from '../flow/index.js';
import type { FlowInstance } from '../spec/index.js';
import { applyExecution, type ExecutionEffect } from './apply-execution.js';
import type { FlowExecution } from './execute-flow.js';

const flow: FlowInstance = { id: 'f1', name: 'book', status: 'active', slots: {}, retries: 0 };
const state: DialogueState = { ...createDialogueState(), stack: [flow] };
const base = { state, scratchpad: [], events: [], filled: [], gated: [] };
const completed = (extra: Partial<Extract<FlowExecution, { kind: 'completed' }>> = {}): FlowExecution => ({
  ...base,
  kind: 'completed',
  outcome: { outcome: 'success', data: { id: 7 }, scratchpadEntries: [] },
  text: 'Booked.',
  verify: [],
  schedule: [{ flow: 'profile', slots: {} }],
  ...extra,
});
const types = (effects: readonly ExecutionEffect[]) => effects.map((e) => e.type);

describe('applyExecution: what a flow outcome does, for a flow and a plan item', () => {
  it('a completed flow replies and schedules; a completed item settles with the skill data', () => {
    const asFlow = applyExecution(completed(), { place: 'flow', flow, intent: 'read' });
    expect(types(asFlow.effects)).toEqual(['reply', 'schedule']);
    expect(asFlow.effects[0]).toEqual({ type: 'reply', text: 'Booked.', silent: false });
    const asItem = applyExecution(completed(), { place: 'item', flow, intent: 'read' });
    expect(asItem.effects.at(-1)).toEqual({ type: 'settle', status: 'completed', result: { id: 7 } });
    expect(types(asItem.effects)).not.toContain('reply');
  });

  it('an item that never called its required tools fails, though its skill said success', () => {
    const applied = applyExecution(
      completed({ validation: { passed: false, missing: ['lookup'] } as never }),
      {
        place: 'item',
        flow,
        intent: 'read',
      },
    );
    expect(applied.effects.at(-1)).toMatchObject({ type: 'settle', status: 'failed' });
    expect(String((applied.effects.at(-1) as { result: unknown }).result)).toContain('lookup');
  });

  it('an Internal flow never speaks; a plan that goes on is silent too', () => {
    const internal = applyExecution(completed(), { place: 'flow', flow, intent: 'internal' });
    expect(internal.effects[0]).toMatchObject({ type: 'reply', silent: true });
    const goingOn = applyExecution(
      completed({ state: { ...state, flags: { ...state.flags, keepGoing: true } } }),
      { place: 'flow', flow, intent: 'plan' },
    );
    expect(goingOn.effects[0]).toMatchObject({ type: 'reply', silent: true });
  });

  it('an output that is not well-formed repairs, reopens the flow and goes to recovery, with no reply', () => {
    const applied = applyExecution(
      completed({ verify: [{ check: 'output-well-formed', message: 'no frame' }] }),
      { place: 'flow', flow, intent: 'read' },
    );
    expect(types(applied.effects)).toEqual(['observe', 'repair', 'reopen', 'recover']);
    expect(applied.state.flags.hasIssues).toBe(true);
  });

  it('a refused flow is invalidated and fails the turn; a refused item only fails the item', () => {
    const blocked: FlowExecution = {
      ...base,
      kind: 'blocked',
      problems: [{ check: 'tools-valid', message: "Tool 'x' is not registered." }],
    };
    const asFlow = applyExecution(blocked, { place: 'flow', flow, intent: 'read' });
    expect(asFlow.state.stack[0]?.status).toBe('invalid');
    expect(types(asFlow.effects)).toEqual(['fail-turn', 'reply', 'observe']);
    const asItem = applyExecution(blocked, { place: 'item', flow, intent: 'read' });
    expect(asItem.state).toBe(state);
    expect(asItem.effects).toEqual([
      { type: 'settle', status: 'failed', result: "Tool 'x' is not registered." },
    ]);
  });

  it('uncertain recovers, suspended suspends and a fallback falls back, in both places', () => {
    const uncertain: FlowExecution = {
      ...base,
      kind: 'uncertain',
      outcome: { outcome: 'uncertain', reason: 'two matches', partial: undefined } as never,
    };
    for (const place of ['flow', 'item'] as const) {
      expect(applyExecution(uncertain, { place, flow, intent: 'read' }).effects).toEqual([
        { type: 'recover', reason: { kind: 'uncertain', reason: 'two matches' } },
      ]);
      const fallback: FlowExecution = {
        ...base,
        kind: 'fallback',
        target: { flow: 'search', reason: 'no id' },
        outcome: { outcome: 'uncertain', reason: 'no id' } as never,
      };
      expect(types(applyExecution(fallback, { place, flow, intent: 'read' }).effects)).toEqual([
        'observe',
        'fall-back',
      ]);
    }
  });

  it('does not change the execution it is given', () => {
    const execution = completed({ verify: [{ check: 'flags-coherent', message: 'keepGoing' }] });
    const before = structuredClone(execution);
    applyExecution(execution, { place: 'flow', flow, intent: 'read' });
    expect(execution).toEqual(before);
  });
});
