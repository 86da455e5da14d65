import type { ToolCallResult } from '../../spec/index.js';
import { compileSchema } from '../compile-schema.js';
import type { ToolCallState } from '../tool-call-state.js';
import type { ToolInputVerdict } from '../tool-definition.js';
import { errorResult } from '../tool-results.js';
import type { StageAnswer } from '../tool-stage.js';

/**
 * Checks the parsed arguments against the tool's input schema (Ajv), then with the tool's own parser when
 * it has one (a Zod schema: refinements, transforms, defaults), and lists the problems (up to ten). The
 * parser's output is what the tool receives.
 */
export function validateInput(state: ToolCallState): StageAnswer<ToolCallResult | undefined> {
  const tool = state.tool;
  if (!tool) return undefined;
  const verdict = compileSchema(tool.inputSchema)(state.input);
  if (!verdict.valid) return refuse(state, verdict.problems);
  if (!tool.parseInput) {
    state.toolInput = state.input;
    return undefined;
  }
  // The parser answers at once unless the schema has asynchronous refinements.
  const parsed = tool.parseInput(state.input);
  return parsed instanceof Promise ? parsed.then((verdict) => accept(state, verdict)) : accept(state, parsed);
}

/** The parser's output is what the tool receives; a value it refuses is the call's answer. */
function accept(state: ToolCallState, parsed: ToolInputVerdict): ToolCallResult | undefined {
  if (!parsed.valid) return refuse(state, parsed.problems);
  state.toolInput = parsed.value;
  return undefined;
}

function refuse(state: ToolCallState, problems: readonly string[]): ToolCallResult {
  const listed = state.batch.redact.text(problems.slice(0, 10).join('; '));
  return errorResult(state, 'validation_error', `Arguments do not match the input schema: ${listed}.`);
}
