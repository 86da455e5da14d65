/**
 * REACT (seed 004): one model call for the next step, streamed when the run streams, with thinking and
 * text delivered live as deltas and recorded as events. Around the call sit the generic retries of
 * seed 000: a transient failure (rate limit, timeout, server error) is retried with backoff on the
 * injected clock; output cut off by the length limit is retried with twice the output tokens; output
 * that cannot be parsed is retried once with a hint. A call is never replayed once part of its
 * streamed output reached a live consumer and it then failed; nothing the loop acts on (tool calls,
 * the transcript) is taken from a response before it is complete.
 */
import type { LanguageModelV3FunctionTool } from '@ai-sdk/provider';
import { awaitWithin, type StopReason } from './await-within.js';
import { invokeModel, type ModelResponse } from './call-model.js';
import { finishSkillTool, finishSkillToolName } from './finish-skill-tool.js';
import {
  deadlines,
  deliver,
  emit,
  offeredToolNames,
  type SkillRun,
  sharedController,
  touch,
} from './internal/skill-run.js';
import { isRetryableModelError, modelRetryDelayMs } from './model-retry-policy.js';
import { loopNote } from './skill-messages.js';
import { toModelTools } from './to-model-tools.js';

/** `act`: tools offered; `reflect`: a level-1 reflection turn with every tool withheld. */
export type ReactMode = 'act' | 'reflect';

export type ReactResult =
  | { kind: 'response'; response: ModelResponse }
  | { kind: 'failed'; error: unknown; partial: ModelResponse }
  | { kind: 'stopped'; reason: StopReason };

/** The labels of a step's model call, shared by every call (the model call copies them). */
const actLabels: Readonly<Record<string, string>> = Object.freeze({ step: 'act' });
const reflectLabels: Readonly<Record<string, string>> = Object.freeze({ step: 'reflect' });

/** Calls the model for the next step, with the generic retries; counts one iteration. */
export async function reactPhase(run: SkillRun, mode: ReactMode): Promise<ReactResult> {
  const tools = mode === 'act' ? offeredModelTools(run) : [];
  const retries = { transient: 0, truncated: 0, unparseable: 0 };
  let hint: string | undefined;
  run.state.iterations += 1;
  for (;;) {
    const prompt = [...run.prompt, ...run.messages];
    if (hint !== undefined) prompt.push(loopNote('retry-hint', hint));
    run.state.turns += 1;
    const live = run.onEvent !== undefined;
    const within = await awaitWithin({
      ...deadlines(run),
      controller: sharedController(run),
      work: (signal) =>
        invokeModel({
          model: run.model,
          prompt,
          phase: 'skill',
          ...(run.flow ? { flow: run.flow } : {}),
          labels: mode === 'act' ? actLabels : reflectLabels,
          tools,
          stream: run.stream,
          maxOutputTokens: run.state.maxOutputTokens,
          signal,
          ...(live
            ? {
                onTextDelta: (delta: string) => streamed(run, 'text-delta', delta),
                onReasoningDelta: (delta: string) => streamed(run, 'thoughts-delta', delta),
              }
            : {}),
        }),
    });
    if (within.status === 'stopped') return { kind: 'stopped', reason: within.reason };
    if (within.status === 'failed') return { kind: 'failed', error: within.error, partial: emptyPartial() };
    const call = within.value;
    touch(run);
    if (!call.ok) {
      const canRetry =
        !call.delivered && retries.transient < run.limits.modelRetries && isRetryableModelError(call.error);
      if (!canRetry) return { kind: 'failed', error: call.error, partial: call.partial };
      retries.transient += 1;
      const delayMs = modelRetryDelayMs({
        attempt: retries.transient,
        error: call.error,
        limits: run.limits,
      });
      emit(run, {
        type: 'react-retry',
        cause: 'transient',
        attempt: retries.transient,
        message: run.batch.redact.text(describeError(call.error)),
        delayMs,
        discardPartial: false,
      });
      try {
        await run.clock.sleep(delayMs, run.signal);
      } catch {
        return { kind: 'stopped', reason: 'user-stop' };
      }
      continue;
    }
    const response = call.response;
    run.state.inputTokens += response.inputTokens;
    run.state.outputTokens += response.outputTokens;
    if (response.finishReason === 'length' && retries.truncated < run.limits.truncationRetries) {
      retries.truncated += 1;
      run.state.maxOutputTokens *= 2;
      emit(run, {
        type: 'react-retry',
        cause: 'truncated',
        attempt: retries.truncated,
        message: `The output was cut off at the length limit; retrying with ${run.state.maxOutputTokens} output tokens.`,
        delayMs: 0,
        discardPartial: live,
      });
      continue;
    }
    const problem = describeUnparseable(response, mode);
    if (problem !== undefined && retries.unparseable < run.limits.unparseableRetries) {
      retries.unparseable += 1;
      hint = problem;
      emit(run, {
        type: 'react-retry',
        cause: 'unparseable',
        attempt: retries.unparseable,
        message: problem,
        delayMs: 0,
        discardPartial: live,
      });
      continue;
    }
    if (response.reasoning) emit(run, { type: 'thoughts', text: response.reasoning });
    if (response.text) emit(run, { type: 'text', text: response.text });
    return { kind: 'response', response };
  }
}

/** The flow's tools that are still offered, plus `finish_skill`. */
/**
 * The tools offered for a call: the run's tools less the withdrawn ones, then `finish_skill`. Built once
 * per tool set and withdrawn list (a run's calls mostly share one), not at every call: the same array
 * goes to every call with that offer, and nothing downstream changes it.
 */
const offers = new WeakMap<SkillRun['tools'], Map<string, LanguageModelV3FunctionTool[]>>();

function offeredModelTools(run: SkillRun): LanguageModelV3FunctionTool[] {
  const withdrawnKey = run.state.breaker.withdrawn.join('\n');
  let byWithdrawn = offers.get(run.tools);
  if (!byWithdrawn) {
    byWithdrawn = new Map();
    offers.set(run.tools, byWithdrawn);
  }
  let tools = byWithdrawn.get(withdrawnKey);
  if (!tools) {
    const offered = new Set(offeredToolNames(run));
    tools = [...toModelTools(run.tools).filter((tool) => offered.has(tool.name)), finishSkillTool];
    byWithdrawn.set(withdrawnKey, tools);
  }
  return tools;
}

function streamed(run: SkillRun, type: 'text-delta' | 'thoughts-delta', delta: string): void {
  touch(run);
  deliver(run, run.parentId === undefined ? { type, delta } : { type, delta, parentId: run.parentId });
}

/** What makes a response unusable, as a hint for the retry; `undefined` when it can be used. */
function describeUnparseable(response: ModelResponse, mode: ReactMode): string | undefined {
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

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

function emptyPartial(): ModelResponse {
  return { text: '', reasoning: '', toolCalls: [], finishReason: 'error', inputTokens: 0, outputTokens: 0 };
}
