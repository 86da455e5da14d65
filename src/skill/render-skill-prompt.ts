/**
 * Composes the system prompt of a flow's skill in one place: persona, the flow's instructions with
 * slot values filled in, what the slots hold, and how to finish (seed 002 prompt composition).
 */
import type { FlowInstance, FlowSpec } from '../spec/index.js';

export interface RenderSkillPromptOptions {
  persona: string;
  spec: FlowSpec;
  flow: FlowInstance;
  /** Thread- or call-specific guidance, placed in its own block. */
  guidance?: string;
}

export function renderSkillPrompt(options: RenderSkillPromptOptions): string {
  const { spec, flow } = options;
  const instructions = spec.skill.replace(/\{\{\s*([a-zA-Z0-9_]+)\s*\}\}/g, (_m, name: string) =>
    formatValue(flow.slots[name]),
  );
  const slotLines = spec.slots
    .filter((s) => flow.slots[s.name] !== undefined)
    .map((s) => `- ${s.name}: ${formatValue(flow.slots[s.name])}`);
  const parts = [
    options.persona,
    `You are running the flow "${spec.name}": ${spec.description}`,
    `Instructions:\n${instructions}`,
  ];
  if (slotLines.length > 0) parts.push(`Slot values:\n${slotLines.join('\n')}`);
  if (spec.successCriteria) parts.push(`Success criteria:\n${spec.successCriteria}`);
  if (options.guidance) parts.push(`[BEGIN_CUSTOM_GUIDANCE]\n${options.guidance}\n[END_CUSTOM_GUIDANCE]`);
  parts.push(
    'Call the tools you need. When you are done, call finish_skill with outcome "success", the reply to the user ' +
      'in message (plain words, never JSON) and any structured result in data; or "failure" with a message saying ' +
      'what failed, or "uncertain" with the question the user must answer, if you cannot finish.',
  );
  return parts.join('\n\n');
}

function formatValue(value: unknown): string {
  if (value === undefined) return '(not given)';
  return typeof value === 'string' ? value : JSON.stringify(value);
}
