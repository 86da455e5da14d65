/**
 * PEX step 1, slot review: find what the flow still needs before its skill may run. When a required slot
 * (or an elective group) is empty, the flow asks for it instead of invoking the skill.
 */
import { missingRequiredSlots, unsatisfiedElectiveGroups } from '../flow/index.js';
import type { FlowInstance, FlowSpec, PendingQuestion } from '../spec/index.js';

export function reviewSlots(spec: FlowSpec, flow: FlowInstance): PendingQuestion | undefined {
  const missing = missingRequiredSlots(spec, flow)[0];
  if (missing) {
    return {
      kind: 'slot',
      flowId: flow.id,
      slot: missing.name,
      question: missing.question ?? `What ${missing.description.toLowerCase()} should I use?`,
      level: 'specific',
    };
  }
  const group = unsatisfiedElectiveGroups(spec, flow)[0];
  if (group?.[0]) {
    const names = group.map((s) => s.description.toLowerCase()).join(' or ');
    return {
      kind: 'slot',
      flowId: flow.id,
      slot: group[0].name,
      question: `Please tell me the ${names}.`,
      level: 'partial',
    };
  }
  return undefined;
}
