/**
 * The scripted conversation every framework plays. The mock model of each framework derives its next
 * answer from the conversation only (the user's request and how many tool results it already holds), so
 * one mock serves any number of concurrent sessions and a resumed thread, and every framework sees the
 * same calls in the same order.
 */
import { type ToolName, toolNames } from './tools.js';

/** `chain`: K tool calls, one per step, then an answer. `parallel`: N tool calls in one step, then an answer. */
export type Plan = { kind: 'chain'; toolCalls: number } | { kind: 'parallel'; toolCalls: number };

export interface PlannedCall {
  callId: string;
  toolName: ToolName;
  input: Record<string, unknown>;
}

export type NextAction = { kind: 'tools'; calls: PlannedCall[] } | { kind: 'answer'; text: string };

/** The user's request that encodes a plan; `parsePlan` reads it back. */
export function requestFor(plan: Plan): string {
  return `${plan.kind} ${plan.toolCalls}`;
}

const planPattern = /^(chain|parallel) (\d+)$/;

/** Whether a user message is a request (runtimes may add user messages of their own, e.g. reflections). */
export function isRequest(text: string): boolean {
  return planPattern.test(text.trim());
}

export function parsePlan(text: string): Plan {
  const match = planPattern.exec(text.trim());
  if (!match) throw new Error(`The mock model cannot read a plan from '${text.slice(0, 80)}'.`);
  return { kind: match[1] as Plan['kind'], toolCalls: Number(match[2]) };
}

/** The model's next move after `done` tool results in the current request. */
export function nextAction(plan: Plan, done: number): NextAction {
  if (done >= plan.toolCalls) return { kind: 'answer', text: `Done: ${done} tool calls.` };
  if (plan.kind === 'parallel') {
    return { kind: 'tools', calls: Array.from({ length: plan.toolCalls }, (_, i) => plannedCall(i)) };
  }
  return { kind: 'tools', calls: [plannedCall(done)] };
}

/** Step `index` calls the tools in turn: add, upper, lookup, add …, never twice with the same arguments. */
export function plannedCall(index: number): PlannedCall {
  const toolName = toolNames[index % toolNames.length] as ToolName;
  const callId = `call_${index + 1}`;
  if (toolName === 'add') return { callId, toolName, input: { a: index, b: 2 } };
  if (toolName === 'upper') return { callId, toolName, input: { text: `step ${index}` } };
  return {
    callId,
    toolName,
    input: { key: (['alpha', 'beta', 'gamma'] as const)[Math.floor(index / 3) % 3], row: index },
  };
}
