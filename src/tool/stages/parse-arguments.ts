import type { ToolCallResult } from '../../spec/index.js';
import type { ToolCallState } from '../tool-call-state.js';
import { toolDefaults } from '../tool-defaults.js';
import { errorResult } from '../tool-results.js';

/**
 * Parses the model's argument text as a JSON object. Empty text means `{}` (models send it for tools
 * without parameters). Text longer than `toolDefaults.maxArgumentChars` is refused unparsed. A JSON
 * string holding a JSON object (arguments encoded twice, as some models do) is unwrapped once; any
 * other value that is not an object is a validation error the model can fix.
 */
export function parseArguments(state: ToolCallState): ToolCallResult | undefined {
  const raw = state.request.input;
  if (typeof raw !== 'string') return refuse(state, 'Arguments must be JSON text.');
  if (raw.length > toolDefaults.maxArgumentChars) {
    return refuse(
      state,
      `Arguments are ${raw.length} characters; at most ${toolDefaults.maxArgumentChars} are accepted.`,
    );
  }
  const text = raw.trim();
  if (text === '') {
    state.input = {};
    return undefined;
  }
  let input: unknown;
  try {
    input = JSON.parse(text);
    if (typeof input === 'string' && input.trimStart().startsWith('{')) input = JSON.parse(input);
  } catch (error) {
    const detail = state.batch.redact.text((error as Error).message).slice(0, 200);
    return refuse(state, `Arguments are not valid JSON (${detail}). Send one JSON object.`);
  }
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    const kind = input === null ? 'null' : Array.isArray(input) ? 'an array' : `a ${typeof input}`;
    return refuse(state, `Arguments must be a JSON object with named fields, not ${kind}.`);
  }
  state.input = input;
  return undefined;
}

function refuse(state: ToolCallState, message: string): ToolCallResult {
  return errorResult(state, 'validation_error', message);
}
