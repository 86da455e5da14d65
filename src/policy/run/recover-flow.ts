/**
 * Carries out what `recover()` decides for a flow that could not finish (seed 000 agent handoff):
 * retry · push an Internal flow to gather context · contemplate (fallback or plan) · escalate; and the
 * fallback protocol shared by contemplate and hard-coded fallbacks.
 */
import { StackDepthError } from '../../errors/index.js';
import { type FlowDefinition, transitionDialogue } from '../../flow/index.js';
import { contemplate } from '../../nlu/index.js';
import type { FlowInstance } from '../../spec/index.js';
import { commitDialogue, dialogueOf, observe, update } from '../../turn/index.js';
import { type RecoveryReason, recover } from '../index.js';
import { type LoopContext, nextId } from './flow-loop-context.js';

export async function recoverFlow(
  loop: LoopContext,
  flow: FlowInstance,
  definition: FlowDefinition,
  reason: RecoveryReason,
  canContemplate = true,
): Promise<boolean> {
  const { turn, options } = loop;
  const current = turn.snapshot.stack.find((f) => f.id === flow.id) ?? flow;
  const action = recover({ flow: current, spec: definition, reason, canContemplate });
  observe(
    turn,
    'recovery',
    {
      action: action.action,
      flow: flow.name,
      ...(reason.kind === 'uncertain' ? { reason: reason.reason } : { problems: reason.problems }),
    },
    flow.id,
  );
  switch (action.action) {
    case 'retry':
      update(turn, { type: 'recovery', flowId: flow.id, step: 'retry' });
      loop.guidance ??= new Map();
      loop.guidance.set(flow.id, action.guidance);
      return false;
    case 'gather-context': {
      update(turn, { type: 'recovery', flowId: flow.id, step: 'gather-context' });
      const internal = options.flows.get(action.flow);
      if (!internal) return recoverFlow(loop, flow, definition, reason);
      const gather = internal.fillSlotsByLabel(
        internal.create({ id: nextId(loop, 'flow') }),
        current.slots,
      ).flow;
      const maxDepth = options.limits.maxStackDepth;
      try {
        commitDialogue(
          turn,
          transitionDialogue(
            dialogueOf(turn.snapshot),
            { type: 'push', flow: { ...gather, returnTo: flow.id } },
            { maxDepth },
          ),
        );
      } catch (error) {
        // No room on the stack to gather context: the refusal is on record, and recovery takes its next step.
        if (!StackDepthError.isInstance(error)) throw error;
        observe(
          turn,
          'error',
          { phase: 'recovery', ...error.toJSON(), maxDepth, flow: gather.name },
          flow.id,
        );
        return recoverFlow(loop, flow, definition, reason);
      }
      update(turn, { type: 'set-flags', flags: { keepGoing: true } });
      observe(
        turn,
        'flow-push',
        { flow: gather.name, flowId: gather.id, slots: gather.slots, returnTo: flow.id },
        gather.id,
      );
      return false;
    }
    case 'contemplate': {
      update(turn, { type: 'recovery', flowId: flow.id, step: 'contemplate' });
      const choice = await contemplate({
        model: options.model,
        flows: options.flows,
        exclude: flow.name,
        ...(action.preferred ? { preferred: action.preferred } : {}),
        reason: reason.kind === 'uncertain' ? reason.reason : reason.problems.join(' '),
        context: options.context,
        persona: options.persona,
        ...(options.stream ? { stream: true } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
      observe(turn, 'recovery', { action: 'contemplated', flow: flow.name, choice }, flow.id);
      if (choice.kind === 'none') return recoverFlow(loop, flow, definition, reason, false);
      return fallBack(loop, flow, choice.flow, choice.slots, `contemplate chose ${choice.flow}`);
    }
    case 'escalate':
      update(turn, { type: 'recovery', flowId: flow.id, step: 'escalate' });
      turn.snapshot.pending = action.question;
      observe(
        turn,
        'clarification',
        { kind: action.question.kind, question: action.question.question, level: action.question.level },
        flow.id,
      );
      return true;
  }
}

/** The fallback protocol: a new flow with the old flow's slots mapped by name; the old one Invalid and popped. */
export function fallBack(
  loop: LoopContext,
  flow: FlowInstance,
  target: string,
  slots: Record<string, unknown>,
  reason: string,
): boolean {
  const { turn, options } = loop;
  const definition = options.flows.get(target);
  const current = turn.snapshot.stack.find((f) => f.id === flow.id) ?? flow;
  if (!definition) {
    update(turn, { type: 'invalidate', flowId: flow.id });
    update(turn, { type: 'set-flags', flags: { hasIssues: true } });
    turn.failed = true;
    turn.replyParts.push({
      text: `I could not finish "${flow.name}", and its fallback '${target}' does not exist.`,
    });
    return false;
  }
  const mapped = Object.fromEntries(
    definition.slots
      .filter((s) => current.slots[s.name] !== undefined)
      .map((s) => [s.name, current.slots[s.name]]),
  );
  const next = definition.fillSlotsByLabel(definition.create({ id: nextId(loop, 'flow') }), {
    ...mapped,
    ...slots,
  }).flow;
  if (current.metadata) next.metadata = { ...current.metadata };
  if (current.planId !== undefined) next.planId = current.planId;
  // Two steps, so the turn's diff shows the old flow marked Invalid before the new one is pushed.
  update(turn, { type: 'invalidate', flowId: current.id });
  update(turn, {
    type: 'fallback',
    flow: { ...next, metadata: { ...next.metadata, fallbackFrom: flow.name, fallbackReason: reason } },
    slotNames: [],
  });
  if (definition.intent === 'plan') update(turn, { type: 'set-flags', flags: { keepGoing: true } });
  observe(
    turn,
    'flow-push',
    { flow: next.name, flowId: next.id, slots: next.slots, fallbackFrom: flow.name, reason },
    next.id,
  );
  return false;
}
