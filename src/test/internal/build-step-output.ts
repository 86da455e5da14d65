import type { LanguageModelV3FinishReason } from '@ai-sdk/provider';
import type { ScriptFinishReason } from '../script-step.js';
import type { StepOutputFields } from './validate-script.js';

/** A step's output in neutral form, rendered by the scripted model and by the test server. */
export interface StepOutput {
  reasoning: string | undefined;
  text: string | undefined;
  /** `input` is the JSON argument text, exactly as a provider would send it. */
  toolCalls: { toolCallId: string; toolName: string; input: string }[];
  finishReason: ScriptFinishReason;
}

/** OpenAI's spelling of each finish reason: the `raw` value of V3 and the server's `finish_reason`. */
export const rawFinishReasons: Record<ScriptFinishReason, string> = {
  stop: 'stop',
  length: 'length',
  'tool-calls': 'tool_calls',
  'content-filter': 'content_filter',
  error: 'error',
  other: 'other',
};

/** Resolves text or JSON, serializes tool inputs and fills in call ids and the finish reason. */
export function buildStepOutput(
  step: StepOutputFields & { finishReason?: ScriptFinishReason; error?: unknown },
  nextCallId: () => string,
): StepOutput {
  const toolCalls = (step.toolCalls ?? []).map((call, index) => ({
    toolCallId: call.callId ?? nextCallId(),
    toolName: call.toolName,
    input:
      index === 0 && step.rawToolInput !== undefined
        ? step.rawToolInput
        : (JSON.stringify(call.input) ?? '{}'),
  }));
  const text = step.json !== undefined ? JSON.stringify(step.json) : step.text;
  const defaultReason = step.error !== undefined ? 'error' : toolCalls.length > 0 ? 'tool-calls' : 'stop';
  return { reasoning: step.reasoning, text, toolCalls, finishReason: step.finishReason ?? defaultReason };
}

/** Characters of output, for the token estimate. */
export function measureOutput(output: StepOutput): { total: number; reasoning: number } {
  const reasoning = output.reasoning?.length ?? 0;
  const tools = output.toolCalls.reduce((sum, call) => sum + call.toolName.length + call.input.length, 0);
  return { total: reasoning + (output.text?.length ?? 0) + tools, reasoning };
}

/** The V3 finish reason: unified, with OpenAI's spelling as the raw value. */
export function toV3FinishReason(output: StepOutput): LanguageModelV3FinishReason {
  return { unified: output.finishReason, raw: rawFinishReasons[output.finishReason] };
}
