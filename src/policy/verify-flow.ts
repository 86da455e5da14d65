/**
 * PEX post-hook `verify()` (seed 000): five checks after a flow ran, on the state before and after it.
 * Returns every problem found; none means the flow's effects are sound.
 */
import {
  checkDialogueInvariants,
  type DialogueState,
  duplicateProblems,
  hasValue,
  isOpen,
} from '../flow/index.js';
import type { DisplayFrame } from '../respond/index.js';
import type { FlowSpec } from '../spec/index.js';
import { isDomainIntent } from './process-result.js';

export type VerifyCheck =
  | 'dialogue-state'
  | 'slots-intact'
  | 'output-well-formed'
  | 'no-duplicates'
  | 'flags-coherent';

export interface VerifyProblem {
  check: VerifyCheck;
  message: string;
}

export function verifyFlow(options: {
  before: DialogueState;
  after: DialogueState;
  flowId: string;
  spec: FlowSpec;
  frame?: DisplayFrame;
  /** Whether the flow wrote to the scratchpad. */
  scratchpadWritten: boolean;
}): VerifyProblem[] {
  const { before, after, flowId, spec } = options;
  const problems: VerifyProblem[] = [];
  const flow = after.stack.find((f) => f.id === flowId);
  if (!flow)
    problems.push({ check: 'dialogue-state', message: `Flow '${spec.name}' is no longer on the stack.` });
  for (const message of checkDialogueInvariants(after).filter((p) => !p.includes('is open twice')))
    problems.push({ check: 'dialogue-state', message });
  const prior = before.stack.find((f) => f.id === flowId);
  if (prior && flow)
    for (const [name, value] of Object.entries(prior.slots))
      if (hasValue(value) && !hasValue(flow.slots[name]))
        problems.push({ check: 'slots-intact', message: `Slot '${name}' of '${spec.name}' was cleared.` });
  if (isDomainIntent(spec.intent)) {
    const frame = options.frame;
    if (!frame || frame.data === undefined || frame.data === null || !frame.displayType)
      problems.push({
        check: 'output-well-formed',
        message: `Flow '${spec.name}' produced no display frame with data.`,
      });
  } else if (!options.scratchpadWritten)
    problems.push({
      check: 'output-well-formed',
      message: `Flow '${spec.name}' wrote nothing to the scratchpad.`,
    });
  for (const message of duplicateProblems(after.stack)) problems.push({ check: 'no-duplicates', message });
  if (after.flags.keepGoing && !after.stack.some((f) => f.id !== flowId && isOpen(f)))
    problems.push({
      check: 'flags-coherent',
      message: 'keepGoing is set, but no other flow waits on the stack.',
    });
  if (before.flags.hasIssues && !after.flags.hasIssues)
    problems.push({ check: 'flags-coherent', message: 'hasIssues was cleared silently.' });
  return problems;
}
