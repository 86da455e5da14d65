/**
 * Whether a model response can be used as a step: an empty reply, or a tool call whose arguments are not
 * JSON, cannot. The description is the hint the react phase retries with.
 */
import type { ModelResponse } from './call-model.js';
import { finishSkillToolName } from './finish-skill-tool.js';

/** What makes a response unusable, as a hint for the retry; `undefined` when it can be used. */
export function describeUnparseable(response: ModelResponse, mode: 'act' | 'reflect'): string | undefined {
  if (response.text.trim() === '' && response.toolCalls.length === 0) {
    return mode === 'reflect'
      ? 'Your reply was empty. Explain in a few sentences what went wrong and what you will do differently.'
      : `Your reply was empty. Call one of the tools, or call ${finishSkillToolName} with the outcome.`;
  }
  if (mode === 'reflect') return undefined;
  for (const call of response.toolCalls) {
    const text = call.input.trim();
    if (text === '') continue;
    try {
      // Kept for the loop's repeat detection, which would parse the same text again.
      call.parsed = JSON.parse(text);
    } catch (error) {
      return (
        `The arguments of your call to ${call.toolName} are not valid JSON (${(error as Error).message}). ` +
        'Call it again with a JSON object.'
      );
    }
  }
  return undefined;
}
