/**
 * The skill loop (seed 004 RVR-B, seed 000 skill execution): react (one model call) → validate (run
 * the tool batch) → terminate? It always ends with exactly one `SkillOutcome` and never throws for
 * anything the model or a tool does. Pseudo-code in docs/architecture/skill-loop.md.
 */
import type { LanguageModelV3, LanguageModelV3Message, LanguageModelV3Prompt } from '@ai-sdk/provider';
import { FlowstackError } from '../errors/index.js';
import type { SkillOutcome, ToolCallRequest, ToolCallResult } from '../spec/index.js';
import { executeToolBatch, type ToolBatchContext, type ToolSet } from '../tool/index.js';
import { callModel, type ModelResponse } from './call-model.js';
import { finishSkillTool, finishSkillToolName, parseFinishSkill } from './finish-skill-tool.js';
import { assistantMessage, toolMessage } from './skill-messages.js';
import { toModelTools } from './to-model-tools.js';

/** What happened in the loop, for history and observations (recorded by the caller after saving). */
export type SkillLoopEvent =
  | { type: 'thoughts'; text: string }
  | { type: 'tool-call'; callId: string; toolName: string; input: string }
  | { type: 'tool-result'; result: ToolCallResult };

export interface RunSkillLoopOptions {
  model: LanguageModelV3;
  /** The prompt so far: system instructions, context, and the user's request. */
  prompt: LanguageModelV3Prompt;
  tools: ToolSet;
  batch: Omit<ToolBatchContext, 'tools'>;
  flow?: string;
  maxIterations: number;
  stream?: boolean;
  signal?: AbortSignal;
}

export interface SkillLoopResult {
  outcome: SkillOutcome;
  /** Messages the loop added to the prompt (assistant tool calls and their results). */
  messages: LanguageModelV3Message[];
  events: SkillLoopEvent[];
  iterations: number;
  inputTokens: number;
  outputTokens: number;
}

export async function runSkillLoop(options: RunSkillLoopOptions): Promise<SkillLoopResult> {
  const messages: LanguageModelV3Message[] = [];
  const events: SkillLoopEvent[] = [];
  const modelTools = [...toModelTools(options.tools), finishSkillTool];
  const batch: ToolBatchContext = { ...options.batch, tools: options.tools };
  const result = (outcome: SkillOutcome, iterations: number): SkillLoopResult => ({
    outcome,
    messages,
    events,
    iterations,
    inputTokens,
    outputTokens,
  });
  let inputTokens = 0;
  let outputTokens = 0;
  for (let iteration = 1; iteration <= options.maxIterations; iteration++) {
    let response: ModelResponse;
    try {
      response = await callModel({
        model: options.model,
        prompt: [...options.prompt, ...messages],
        phase: 'skill',
        ...(options.flow ? { flow: options.flow } : {}),
        tools: modelTools,
        ...(options.stream ? { stream: true } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (error) {
      const message = FlowstackError.isInstance(error) ? error.message : String(error);
      return result(
        { outcome: 'failure', errorCategory: 'model_error', message, partialData: null },
        iteration,
      );
    }
    inputTokens += response.inputTokens;
    outputTokens += response.outputTokens;
    if (response.reasoning) events.push({ type: 'thoughts', text: response.reasoning });
    if (response.toolCalls.length === 0) {
      const text = response.text.trim();
      if (text === '') {
        return result(
          {
            outcome: 'failure',
            errorCategory: 'model_error',
            message: 'The model answered with nothing.',
            partialData: null,
          },
          iteration,
        );
      }
      return result({ outcome: 'success', data: { text }, scratchpadEntries: [] }, iteration);
    }
    messages.push(assistantMessage(response));
    const finish = response.toolCalls.find((c) => c.toolName === finishSkillToolName);
    const requests: ToolCallRequest[] = response.toolCalls
      .filter((c) => c.toolName !== finishSkillToolName)
      .map((c) => ({ callId: c.toolCallId, toolName: c.toolName, input: c.input }));
    for (const r of requests)
      events.push({ type: 'tool-call', callId: r.callId, toolName: r.toolName, input: r.input });
    const results = await executeToolBatch(requests, batch);
    for (const r of results) events.push({ type: 'tool-result', result: r });
    const suspended = results.find((r) => r.status === 'suspended');
    const finishParse = finish ? parseFinishSkill(finish.input) : undefined;
    const finishResult: ToolCallResult[] = finish
      ? [
          finishParse?.ok
            ? {
                status: 'success',
                callId: finish.toolCallId,
                toolName: finishSkillToolName,
                output: 'ok',
                contextText: 'ok',
              }
            : {
                status: 'error',
                callId: finish.toolCallId,
                toolName: finishSkillToolName,
                error: {
                  category: 'validation_error',
                  message: finishParse?.ok === false ? finishParse.problem : '',
                  retryable: true,
                },
                contextText: finishParse?.ok === false ? finishParse.problem : '',
              },
        ]
      : [];
    messages.push(toolMessage([...results, ...finishResult]));
    if (suspended && suspended.status === 'suspended') {
      return result(
        {
          outcome: 'suspended',
          callId: suspended.callId,
          toolName: suspended.toolName,
          reason: suspended.reason,
        },
        iteration,
      );
    }
    if (finishParse?.ok) return result(finishParse.outcome, iteration);
  }
  return result(
    {
      outcome: 'failure',
      errorCategory: 'loop_limit',
      message: `The skill did not finish within ${options.maxIterations} model calls.`,
      partialData: events.filter((e) => e.type === 'tool-result' && e.result.status === 'success').length,
    },
    options.maxIterations,
  );
}
