/**
 * The system prompt of a flow's skill, composed with `composePrompt` like every other prompt: persona,
 * domain, thread instructions (preferences), the flow's instructions with slot values, its success
 * criteria, how to finish, and the call's guidance (a retry hint, gathered context).
 */
import { composePrompt, describePreferences } from '../memory/index.js';
import type { FlowInstance, FlowSpec } from '../spec/index.js';

export function composeSkillPrompt(options: {
  persona: string;
  domain?: string;
  spec: FlowSpec;
  flow: FlowInstance;
  preferences: Readonly<Record<string, unknown>>;
  guidance?: string;
}): string {
  const { spec, flow } = options;
  // Most skills name no slot: their text is used as it is, without a pass of the pattern over it.
  const instructions = spec.skill.includes('{{')
    ? spec.skill.replace(/\{\{\s*([a-zA-Z0-9_]+)\s*\}\}/g, (_m, name: string) => format(flow.slots[name]))
    : spec.skill;
  const slotLines = spec.slots
    .filter((s) => flow.slots[s.name] !== undefined)
    .map((s) => `- ${s.name}: ${format(flow.slots[s.name])}`);
  const task = [
    `You are running the flow "${spec.name}": ${spec.description}`,
    `Instructions:\n${instructions}`,
    ...(slotLines.length > 0 ? [`Slot values:\n${slotLines.join('\n')}`] : []),
    ...(spec.successCriteria ? [`Success criteria:\n${spec.successCriteria}`] : []),
    ...(spec.requiredTools && spec.requiredTools.length > 0
      ? [`Before you finish with success you must call: ${spec.requiredTools.join(', ')}.`]
      : []),
    'Besides the flow tools you may read the conversation (context_coordinator), read and write session notes and ' +
      'read preferences (memory_manager), and read the slots of this and earlier flows (flow_stack).',
    'When you are done, call finish_skill with outcome "success", the reply to the user in message (plain words, ' +
      'never JSON) and any structured result in data (rows in data.rows); or "failure" with a message saying what ' +
      'failed, or "uncertain" with the question the user must answer, if you cannot finish.',
  ].join('\n\n');
  const preferences = describePreferences(options.preferences);
  return composePrompt({
    persona: options.persona,
    ...(options.domain ? { domain: options.domain } : {}),
    ...(preferences ? { thread: `The user's preferences:\n${preferences}` } : {}),
    task,
    ...(options.guidance ? { guidance: options.guidance } : {}),
  });
}

function format(value: unknown): string {
  if (value === undefined) return '(not given)';
  return typeof value === 'string' ? value : JSON.stringify(value);
}
