/**
 * Prompt composition in one place (seed 002): every system prompt flowstack sends is built here from
 * the same blocks, in the same order — base persona, domain, thread instructions, the task, and
 * call-specific guidance in its own delimited block — so a change of persona or guidance reaches every
 * model call (routing, slot filling, contemplation, skills) alike.
 */

export interface PromptBlocks {
  /** Who the agent is; the same for every call. */
  persona: string;
  /** What the domain is about (its name and description). */
  domain?: string;
  /** Instructions that hold for this thread (e.g. the user's standing preferences). */
  thread?: string;
  /** What this call must do. */
  task: string;
  /** Guidance for this call only (seed 002 custom guidance), fenced so the model reads it as such. */
  guidance?: string;
}

/** Joins the blocks that are present, separated by blank lines. */
export function composePrompt(blocks: PromptBlocks): string {
  const parts = [blocks.persona.trim()];
  if (blocks.domain?.trim()) parts.push(`Domain: ${blocks.domain.trim()}`);
  if (blocks.thread?.trim()) parts.push(`Thread instructions:\n${blocks.thread.trim()}`);
  parts.push(blocks.task.trim());
  if (blocks.guidance?.trim())
    parts.push(`[BEGIN_CUSTOM_GUIDANCE]\n${blocks.guidance.trim()}\n[END_CUSTOM_GUIDANCE]`);
  return parts.join('\n\n');
}

/** Preferences as thread instructions, one `- key: value` line each; empty when there are none. */
export function describePreferences(preferences: Readonly<Record<string, unknown>>): string {
  return Object.entries(preferences)
    .map(([key, value]) => `- ${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join('\n');
}
