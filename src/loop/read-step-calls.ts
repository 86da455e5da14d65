/**
 * Reads a step's calls from the model's response: its native tool calls, or else the calls it wrote in
 * its text when the run has a parser for them. Unreadable text calls are kept with their problem, so the
 * model hears about them.
 */
import type { ToolCallRequest } from '../spec/index.js';
import type { ModelResponse } from './call-model.js';
import type { SkillRun, StepCall, TextToolCall } from './internal/skill-run.js';

/** A step's calls, and whether they were read from the text. */
export type Step = { calls: StepCall[]; viaText: boolean };

/** The step's calls: native tool calls, or else calls written in the text when a parser is given. */
export function readStepCalls(run: SkillRun, response: ModelResponse): Step {
  if (response.toolCalls.length > 0)
    return {
      calls: response.toolCalls.map((c) => ({
        callId: c.toolCallId,
        toolName: c.toolName,
        input: c.input,
        parsed: c.parsed,
      })),
      viaText: false,
    };
  if (!run.parseTextToolCalls || response.text.trim() === '') return { calls: [], viaText: false };
  let parsed: readonly TextToolCall[] = [];
  try {
    parsed = run.parseTextToolCalls(response.text);
  } catch {
    parsed = [];
  }
  const calls = parsed.map((c): StepCall => {
    const callId = c.callId ?? run.ids('text_call');
    if ('problem' in c) return { callId, toolName: c.toolName, input: '', problem: c.problem };
    const request: ToolCallRequest = { callId, toolName: c.toolName, input: c.input };
    if (c.parallelGroup !== undefined) request.parallelGroup = c.parallelGroup;
    return request;
  });
  return { calls, viaText: calls.length > 0 };
}
