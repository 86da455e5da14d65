/**
 * The dialogue state (seed 000/001) as a pure reducer: `transitionDialogue(state, event)` returns the
 * next state and leaves its input alone. The state is the user-facing flow stack, the flags, and the
 * Internal flows running in the background. `diffDialogue` turns two states into the per-turn history
 * of diffs; `checkDialogueInvariants` states DESIGN.md invariants 1–3 as data.
 */
import type { DialogueFlags, FlowInstance, FlowStatus, RecoveryStep } from '../spec/index.js';
import {
  completeActiveFlow,
  fallbackFlow,
  invalidateFlow,
  isOpen,
  popFinishedFlows,
  pushFlow,
  updateFlow,
} from './flow-stack.js';

export interface DialogueState {
  stack: FlowInstance[];
  flags: DialogueFlags;
  /** Internal flows in the background, in the order they were scheduled. */
  background: FlowInstance[];
}

export type DialogueEvent =
  /** Push a flow (de-duplicated); a `plan` flow is tagged with its own id as plan id. */
  | { type: 'push'; flow: FlowInstance; intent?: string }
  /** Merge slot values into a flow (the active one by default). */
  | { type: 'fill-slots'; flowId?: string; slots: Record<string, unknown> }
  | { type: 'complete'; result: unknown }
  /** Invalidate a flow (the active one by default) and, for a Plan flow, all its sub-flows. */
  | { type: 'invalidate'; flowId?: string }
  | { type: 'pop-finished' }
  | { type: 'fallback'; flow: FlowInstance; slotNames: readonly string[] }
  | { type: 'set-flags'; flags: Partial<DialogueFlags> }
  /** Record a recovery step spent on a flow; `retry` also counts a retry. */
  | { type: 'recovery'; flowId: string; step: RecoveryStep }
  | { type: 'confirm'; flowId: string; hash: string }
  /** Add Internal flows to the background (Pending until their dependencies are done). */
  | { type: 'schedule'; flows: FlowInstance[] }
  | { type: 'background-status'; flowId: string; status: FlowStatus; result?: unknown }
  /** Drop finished background flows. */
  | { type: 'prune-background' };

export interface TransitionOptions {
  maxDepth?: number;
}

/** The state of a thread that has had no flow yet. */
export function createDialogueState(): DialogueState {
  return {
    stack: [],
    flags: { keepGoing: false, hasIssues: false, hasPlan: false, naturalBirth: true },
    background: [],
  };
}

export function transitionDialogue(
  state: DialogueState,
  event: DialogueEvent,
  options: TransitionOptions = {},
): DialogueState {
  const depth = options.maxDepth === undefined ? {} : { maxDepth: options.maxDepth };
  switch (event.type) {
    case 'push': {
      const flow =
        event.intent === 'plan' && event.flow.planId === undefined
          ? { ...event.flow, planId: event.flow.id }
          : event.flow;
      const stack = pushFlow(state.stack, flow, depth);
      return withPlanFlag({ ...state, stack, flags: { ...state.flags, naturalBirth: false } });
    }
    case 'fill-slots': {
      const id = event.flowId ?? state.stack.at(-1)?.id;
      if (id === undefined) return state;
      return {
        ...state,
        stack: updateFlow(state.stack, id, (f) => ({ ...f, slots: { ...f.slots, ...event.slots } })),
      };
    }
    case 'complete':
      return { ...state, stack: completeActiveFlow(state.stack, event.result) };
    case 'invalidate':
      return { ...state, stack: invalidateFlow(state.stack, event.flowId) };
    case 'pop-finished': {
      const { stack } = popFinishedFlows(state.stack);
      const keepGoing = state.flags.keepGoing && stack.length > 0;
      return withPlanFlag({ ...state, stack, flags: { ...state.flags, keepGoing } });
    }
    case 'fallback':
      return withPlanFlag({
        ...state,
        stack: fallbackFlow(state.stack, { flow: event.flow, slotNames: event.slotNames, ...depth }),
      });
    case 'set-flags':
      return { ...state, flags: { ...state.flags, ...event.flags } };
    case 'recovery':
      return {
        ...state,
        stack: updateFlow(state.stack, event.flowId, (f) => ({
          ...f,
          retries: f.retries + (event.step === 'retry' ? 1 : 0),
          recovery: [...(f.recovery ?? []), event.step],
        })),
      };
    case 'confirm':
      return {
        ...state,
        stack: updateFlow(state.stack, event.flowId, (f) => ({ ...f, confirmed: event.hash })),
      };
    case 'schedule':
      return {
        ...state,
        background: [...state.background, ...event.flows.map((f) => ({ ...f, status: 'pending' as const }))],
      };
    case 'background-status':
      return {
        ...state,
        background: state.background.map((f) =>
          f.id === event.flowId
            ? { ...f, status: event.status, ...(event.result !== undefined ? { result: event.result } : {}) }
            : f,
        ),
      };
    case 'prune-background':
      return { ...state, background: state.background.filter(isOpen) };
  }
}

function withPlanFlag(state: DialogueState): DialogueState {
  const hasPlan = state.stack.some((f) => f.planId !== undefined && isOpen(f));
  return hasPlan === state.flags.hasPlan ? state : { ...state, flags: { ...state.flags, hasPlan } };
}
