/**
 * What a built-in fast path (greeting, thanks, help, repeat, cancel, yes/no to a confirmation) does,
 * decided without touching the turn: the dialogue transition to apply and the reply to give.
 */
import { activeFlow, type DialogueEvent, type FlowDefinition } from '../flow/index.js';
import type { HistoryMessage } from '../memory/index.js';
import type { FlowInstance, PendingQuestion } from '../spec/index.js';
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
    case 'greeting':
      return { clearPending: false, reply: `Hello! ${describeCatalogText(flows)}` };
    case 'thanks':
      return { clearPending: false, reply: "You're welcome." };
    case 'help':
      return { clearPending: false, reply: describeCatalogText(flows) };
  }
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
