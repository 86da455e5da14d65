/**
 * DESIGN.md invariants 1–3 as a pure check that returns every violation as a sentence (none means the
 * state holds them). Tests run it after every transition; the post-hook `verify()` runs it after
 * every flow.
 */
import type { FlowInstance } from '../spec/index.js';
import type { DialogueState } from './dialogue-state.js';
import { defaultMaxStackDepth, isOpen } from './flow-stack.js';

export function checkDialogueInvariants(
  state: DialogueState,
  options: { maxDepth?: number; turnEnd?: boolean } = {},
): string[] {
  const problems: string[] = [];
  const { stack } = state;
  const maxDepth = options.maxDepth ?? defaultMaxStackDepth;
  if (stack.length > maxDepth)
    problems.push(`the stack is ${stack.length} deep, above its bound of ${maxDepth}`);
  const active = stack.filter((f) => f.status === 'active');
  if (active.length > 1)
    problems.push(`${active.length} flows are Active: ${active.map((f) => f.name).join(', ')}`);
  if (active.length === 1 && stack.at(-1)?.status !== 'active')
    problems.push(`the Active flow '${active[0]?.name}' is not on top`);
  const finished = stack.filter((f) => !isOpen(f));
  if (finished.length === 0 && stack.length > 0 && stack.at(-1)?.status !== 'active')
    problems.push(`the top flow '${stack.at(-1)?.name}' is ${stack.at(-1)?.status}, not Active`);
  if (options.turnEnd && finished.length > 0)
    problems.push(
      `finished flows are still on the stack at the end of the turn: ${finished.map((f) => f.name).join(', ')}`,
    );
  problems.push(...duplicateProblems(stack));
  problems.push(...planProblems(stack));
  if (state.flags.keepGoing && options.turnEnd) problems.push('keepGoing is set at the end of the turn');
  return problems;
}

/** Open flows of the same name and plan, which de-duplication should have merged (post-hook check 4). */
export function duplicateProblems(stack: readonly FlowInstance[]): string[] {
  const seen = new Map<string, string>();
  const problems: string[] = [];
  for (const flow of stack.filter(isOpen)) {
    const key = `${flow.name}\u0000${flow.planId ?? ''}`;
    const other = seen.get(key);
    if (other !== undefined) problems.push(`flow '${flow.name}' is open twice (${other} and ${flow.id})`);
    else seen.set(key, flow.id);
  }
  return problems;
}

function planProblems(stack: readonly FlowInstance[]): string[] {
  const problems: string[] = [];
  stack.forEach((flow, index) => {
    if (flow.planId === undefined || flow.planId === flow.id || !isOpen(flow)) return;
    const ownerIndex = stack.findIndex((f) => f.id === flow.planId);
    const owner = stack[ownerIndex];
    if (!owner)
      problems.push(`sub-flow '${flow.name}' belongs to plan ${flow.planId}, which is not on the stack`);
    else if (owner.status === 'invalid')
      problems.push(`sub-flow '${flow.name}' is open though its plan is Invalid`);
    else if (ownerIndex > index) problems.push(`sub-flow '${flow.name}' sits below its plan '${owner.name}'`);
  });
  return problems;
}
