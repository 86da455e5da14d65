import { describe, expect, it } from 'vitest';
import type { FlowInstance } from '../spec/index.js';
import { startProgress, stepTurn, type TurnView } from './turn-machine.js';

const flow = (id: string, extra: Partial<FlowInstance> = {}): FlowInstance => ({
  id,
  name: id,
  status: 'active',
  slots: {},
  retries: 0,
  ...extra,
});
const view = (stack: FlowInstance[], extra: Partial<TurnView> = {}): TurnView => ({
  stack,
  pending: false,
  suspended: false,
  stopRequested: false,
  isPlanned: (f) => f.planId !== undefined,
  ...extra,
});

describe('the turn machine', () => {
  it('routes a new message, then runs the active flow, then finishes when nothing is left', () => {
    let step = stepTurn(startProgress(8), view([]), { type: 'start', routed: false, exhausted: false });
    expect(step.effect).toEqual({ type: 'route' });
    step = stepTurn(step.progress, view([flow('a')]), { type: 'routed' });
    expect(step.effect).toEqual({ type: 'run-flow', flow: flow('a') });
    step = stepTurn(step.progress, view([]), { type: 'ran', stop: false });
    expect(step.effect).toEqual({ type: 'finish', closeDialogue: true });
  });

  it('skips routing for a turn past it, and sends a plan sub-flow to the plan loop', () => {
    const sub = flow('item-1', { planId: 'plan-1' });
    const step = stepTurn(startProgress(8), view([sub]), { type: 'start', routed: true, exhausted: false });
    expect(step.effect).toEqual({ type: 'run-plan', flow: sub });
  });

  it('stops at a question or a suspension, and after maxFlowsPerTurn runs', () => {
    expect(stepTurn(startProgress(8), view([flow('a')]), { type: 'ran', stop: true }).effect.type).toBe(
      'finish',
    );
    expect(
      stepTurn(startProgress(8), view([flow('a')], { pending: true }), { type: 'routed' }).effect.type,
    ).toBe('finish');
    let progress = startProgress(2);
    let effect = stepTurn(progress, view([flow('a')]), { type: 'routed' }).effect;
    const runs: string[] = [];
    while (effect.type !== 'finish') {
      runs.push(effect.type);
      ({ progress, effect } = stepTurn(progress, view([flow('a')]), { type: 'ran', stop: false }));
    }
    expect(runs).toEqual(['run-flow', 'run-flow']);
    expect(effect).toEqual({ type: 'finish', closeDialogue: true, bound: 'maxFlowsPerTurn' });
  });

  it('never runs a Pending flow on top, and abandons a turn that kept dying', () => {
    expect(
      stepTurn(startProgress(8), view([flow('a', { status: 'pending' })]), { type: 'routed' }).effect.type,
    ).toBe('finish');
    const start = stepTurn(startProgress(8), view([]), { type: 'start', routed: true, exhausted: true });
    expect(start.effect).toEqual({ type: 'abandon' });
    expect(stepTurn(start.progress, view([]), { type: 'abandoned' }).effect).toEqual({
      type: 'finish',
      closeDialogue: false,
    });
  });

  it('a model failure finishes without closing the dialogue', () => {
    expect(stepTurn(startProgress(8), view([flow('a')]), { type: 'model-failed' }).effect).toEqual({
      type: 'finish',
      closeDialogue: false,
    });
  });

  it('a stop said while the turn runs starts no further flow, and says the ready one is cancelled', () => {
    const stopped = view([flow('a'), flow('b')], { stopRequested: true });
    expect(stepTurn(startProgress(8), stopped, { type: 'ran', stop: false }).effect).toEqual({
      type: 'finish',
      closeDialogue: true,
      stopped: true,
    });
    expect(stepTurn(startProgress(8), stopped, { type: 'routed' }).effect.type).toBe('finish');
    // A model call the stop cut short is no model failure.
    expect(stepTurn(startProgress(8), stopped, { type: 'stopped' }).effect).toEqual({
      type: 'finish',
      closeDialogue: true,
      stopped: true,
    });
    // Nothing left to run: an ordinary finish.
    expect(stepTurn(startProgress(8), view([], { stopRequested: true }), { type: 'routed' }).effect).toEqual({
      type: 'finish',
      closeDialogue: true,
    });
  });
});
