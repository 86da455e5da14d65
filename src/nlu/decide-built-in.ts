/**
 * What a built-in fast path (greeting, thanks, help, repeat, cancel, yes/no to a confirmation, undo,
 * status) does, decided without touching the turn: the dialogue transition to apply and the reply to give.
 */
import { activeFlow, type DialogueEvent, type FlowDefinition, isOpen } from '../flow/index.js';
import type { HistoryMessage } from '../memory/index.js';
import type { FlowInstance, PendingQuestion, TurnDiff } from '../spec/index.js';
import { stableHash } from '../util/index.js';
import type { Decision } from './decide-route.js';

export interface BuiltInOutcome {
  /** The pending question is answered or dropped. */
  clearPending: boolean;
  transition?: DialogueEvent;
  reply?: string;
}

export function decideBuiltIn(options: {
  decision: Extract<Decision, { kind: 'built-in' }>;
  stack: readonly FlowInstance[];
  pending: PendingQuestion | undefined;
  flows: ReadonlyMap<string, FlowDefinition>;
  history: readonly HistoryMessage[];
  /** The dialogue changes of the last turns, oldest first (what "undo" takes back). */
  diffs?: readonly TurnDiff[];
}): BuiltInOutcome {
  const { decision, stack, pending, flows } = options;
  switch (decision.builtIn) {
    case 'confirm': {
      const flow = stack.find((f) => f.id === pending?.flowId);
      if (!flow) return { clearPending: true };
      if (decision.answer === 'yes')
        return {
          clearPending: true,
          transition: { type: 'confirm', flowId: flow.id, hash: stableHash(flow.slots) },
        };
      const because = decision.reason ? ` (${decision.reason})` : '';
      return {
        clearPending: true,
        transition: { type: 'invalidate', flowId: flow.id },
        reply: `All right, I will not ${describeFlow(flows, flow.name)}${because}.`,
      };
    }
    case 'cancel': {
      const active = activeFlow(stack);
      if (!active) return { clearPending: true, reply: 'There is nothing to cancel.' };
      return {
        clearPending: true,
        transition: { type: 'invalidate', flowId: active.id },
        reply: `Cancelled: ${describeFlow(flows, active.name)}.`,
      };
    }
    case 'repeat': {
      const last = [...options.history].reverse().find((m) => m.role === 'assistant')?.text;
      const without = last && pending ? last.replace(pending.question, '').trim() : last;
      return { clearPending: false, reply: without || (last ? '' : 'I have not said anything yet.') };
    }
    case 'undo':
      return undoLastStart(stack, options.diffs ?? [], flows);
    case 'status':
      return { clearPending: false, reply: describeStatus(stack, flows) };
    case 'greeting':
      return { clearPending: false, reply: `Hello! ${describeCatalogText(flows)}` };
    case 'thanks':
      return { clearPending: false, reply: "You're welcome." };
    case 'help':
      return { clearPending: false, reply: describeCatalogText(flows) };
  }
}

/**
 * "Undo": the flow the last turn started, when it is still open, is taken back (nothing of it has run to
 * an end). Anything that finished is not undone by a sentence: file changes have their rollback.
 */
function undoLastStart(
  stack: readonly FlowInstance[],
  diffs: readonly TurnDiff[],
  flows: ReadonlyMap<string, FlowDefinition>,
): BuiltInOutcome {
  const pushed = (diffs.at(-1)?.changes ?? []).filter((c) => c.op === 'push').map((c) => c.flowId);
  const flow = [...stack].reverse().find((f) => pushed.includes(f.id) && isOpen(f));
  if (!flow)
    return {
      clearPending: false,
      reply:
        'There is nothing I can undo: what finished has happened (file changes can be rolled back from the thread).',
    };
  return {
    clearPending: true,
    transition: { type: 'invalidate', flowId: flow.id },
    reply: `Undone: I will not ${describeFlow(flows, flow.name)}.`,
  };
}

/** "Where are we": the open flows, top first, with their slot values (a waiting question is asked again). */
function describeStatus(stack: readonly FlowInstance[], flows: ReadonlyMap<string, FlowDefinition>): string {
  const open = [...stack].reverse().filter(isOpen);
  if (open.length === 0) return 'Nothing is under way.';
  const lines = open.map((f) => {
    const slots = Object.entries(f.slots)
      .map(([name, value]) => `${name} = ${typeof value === 'string' ? value : JSON.stringify(value)}`)
      .join(', ');
    return `- ${flows.get(f.name)?.description ?? f.name}${slots ? ` (${slots})` : ''}`;
  });
  return `Under way:\n${lines.join('\n')}`;
}

/** A flow's description as the middle of a sentence. */
function describeFlow(flows: ReadonlyMap<string, FlowDefinition>, name: string): string {
  const description = flows.get(name)?.description ?? name;
  return description.charAt(0).toLowerCase() + description.slice(1).replace(/\.$/, '');
}

/** What the agent can help with: every flow a user may start. */
export function describeCatalogText(flows: ReadonlyMap<string, FlowDefinition>): string {
  const lines = [...flows.values()].filter((f) => f.intent !== 'internal').map((f) => `- ${f.description}`);
  return `I can help with:\n${lines.join('\n')}`;
}
