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
import type { StopReason, WithinOutcome } from './await-within.js';
import {
  type CallModelOptions,
  invokeModel,
  type ModelCallOutcome,
  type ModelResponse,
} from './call-model.js';
import { describeUnparseable } from './describe-unparseable.js';
import { finishSkillToolName } from './finish-skill-tool.js';
import { createSkillMarkupFilter } from './hide-skill-markup.js';
import { deliver, emit, type SkillRun, sharedController, touch, watchOf } from './internal/skill-run.js';
import { isRetryableModelError, modelRetryDelayMs } from './model-retry-policy.js';
import { offeredModelTools } from './offered-model-tools.js';
import { createReplyFieldReader, type StringFieldReader } from './read-string-field.js';
import { repairTranscript } from './repair-transcript.js';
import type { SkillLoopDelta } from './skill-loop-events.js';
import { loopNote } from './skill-messages.js';
import { withTextTools } from './text-tool-prompt.js';

/** `act`: tools offered; `reflect`: a level-1 reflection turn with every tool withheld. */
export type ReactMode = 'act' | 'reflect';

export type ReactResult =
  | { kind: 'response'; response: ModelResponse }
  | { kind: 'failed'; error: unknown; partial: ModelResponse }
  | { kind: 'stopped'; reason: StopReason };

/** The labels of a step's model call, shared by every call (the model call copies them). */
const actLabels: Readonly<Record<string, string>> = Object.freeze({ step: 'act' });
const reflectLabels: Readonly<Record<string, string>> = Object.freeze({ step: 'reflect' });

/** How many times each kind of retry has been taken in one react phase. */
interface ReactRetries {
  transient: number;
  truncated: number;
  unparseable: number;
}

/** Calls the model for the next step, with the generic retries; counts one iteration. */
export async function reactPhase(run: SkillRun, mode: ReactMode): Promise<ReactResult> {
  const tools = mode === 'act' ? offeredModelTools(run) : [];
  const retries: ReactRetries = { transient: 0, truncated: 0, unparseable: 0 };
  let hint: string | undefined;
  run.state.iterations += 1;
  // What the run was handed (history, a resumed transcript) is checked once; the steps the loop adds
  // always carry each call with its result (the validate phase answers every call it queued).
  if (!run.transcriptChecked) {
    await repairTranscript(run);
    run.transcriptChecked = true;
  }
  for (;;) {
    const within = await invokeStepModel(run, { mode, tools, hint });
    if (within.status === 'stopped') return { kind: 'stopped', reason: within.reason };
    if (within.status === 'failed') return { kind: 'failed', error: within.error, partial: emptyPartial() };
    const call = within.value;
    touch(run);
    if (!call.ok) {
      const ended = await waitForTransientRetry(run, retries, call);
      if (ended) return ended;
      continue;
    }
    const response = call.response;
    run.state.inputTokens += response.inputTokens;
    run.state.outputTokens += response.outputTokens;
    if (retryTruncated(run, retries, response)) continue;
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
        discardPartial: run.onEvent !== undefined,
      });
      continue;
    }
    if (response.reasoning) emit(run, { type: 'thoughts', text: response.reasoning });
    if (response.text) emit(run, { type: 'text', text: response.text });
    return { kind: 'response', response };
  }
}

/** One attempt of the step's model call within the run's deadlines, with the retry hint when there is one. */
function invokeStepModel(
  run: SkillRun,
  call: { mode: ReactMode; tools: LanguageModelV3FunctionTool[]; hint: string | undefined },
): Promise<WithinOutcome<ModelCallOutcome>> {
  const { mode, tools, hint } = call;
  // A model without native tool calling is told of the tools in its system prompt and sent none.
  const inText = run.toolCalling === 'text';
  const prompt = [
    ...(inText && tools.length > 0 ? withTextTools(run.prompt, tools) : run.prompt),
    ...run.messages,
  ];
  if (hint !== undefined) prompt.push(loopNote('retry-hint', hint));
  run.state.turns += 1;
  const live = run.onEvent !== undefined;
  // Calls written in the text are not for the reader: only the prose goes out live.
  const markup = live && inText ? createSkillMarkupFilter() : undefined;
  const waited = watchOf(run).wait(sharedController(run), (signal) =>
    invokeModel({
      model: run.model,
      prompt,
      phase: 'skill',
      ...(run.flow ? { flow: run.flow } : {}),
      labels: mode === 'act' ? actLabels : reflectLabels,
      tools: inText ? [] : tools,
      stream: run.stream,
      maxOutputTokens: run.state.maxOutputTokens,
      signal,
      ...(live ? liveDeltas(run, inText, markup) : {}),
    }),
  );
  if (!markup) return waited;
  return waited.then((outcome) => {
    streamed(run, 'text-delta', markup.end());
    return outcome;
  });
}

/** Where a live run's deltas go as the model writes: the text (without call markup) and the thinking. */
function liveDeltas(
  run: SkillRun,
  inText: boolean,
  markup: ReturnType<typeof createSkillMarkupFilter> | undefined,
): Pick<CallModelOptions, 'onTextDelta' | 'onReasoningDelta' | 'onToolInputDelta'> {
  return {
    onTextDelta: markup
      ? (delta) => streamed(run, 'text-delta', markup.push(delta))
      : (delta) => streamed(run, 'text-delta', delta),
    onReasoningDelta: (delta) => streamed(run, 'thoughts-delta', delta),
    // The reply written as finish_skill's message goes out as the model writes it, too.
    ...(inText ? {} : { onToolInputDelta: streamFinishMessage(run) }),
  };
}

/**
 * A failed call: waits out the backoff before a retry when the failure is transient and nothing of it
 * reached a live consumer (`undefined`), else ends the phase as failed, or stopped when the wait was.
 */
async function waitForTransientRetry(
  run: SkillRun,
  retries: ReactRetries,
  call: Extract<ModelCallOutcome, { ok: false }>,
): Promise<ReactResult | undefined> {
  const canRetry =
    !call.delivered && retries.transient < run.limits.modelRetries && isRetryableModelError(call.error);
  if (!canRetry) return { kind: 'failed', error: call.error, partial: call.partial };
  retries.transient += 1;
  const delayMs = modelRetryDelayMs({
    attempt: retries.transient,
    error: call.error,
    limits: run.limits,
    random: run.batch.random,
  });
  run.batch.logger?.warn(
    {
      threadId: run.batch.threadId,
      turnId: run.batch.turnId,
      attempt: retries.transient,
      delayMs,
      err: call.error,
    },
    'A model call failed; retrying after a wait.',
  );
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
  return undefined;
}

/** Output cut off by the length limit: doubles the output tokens for a retry, while retries are left. */
function retryTruncated(run: SkillRun, retries: ReactRetries, response: ModelResponse): boolean {
  if (response.finishReason !== 'length' || retries.truncated >= run.limits.truncationRetries) return false;
  retries.truncated += 1;
  run.state.maxOutputTokens *= 2;
  emit(run, {
    type: 'react-retry',
    cause: 'truncated',
    attempt: retries.truncated,
    message: `The output was cut off at the length limit; retrying with ${run.state.maxOutputTokens} output tokens.`,
    delayMs: 0,
    discardPartial: run.onEvent !== undefined,
  });
  return true;
}

function streamed(run: SkillRun, type: 'text-delta' | 'thoughts-delta', delta: string, message?: true): void {
  touch(run);
  if (delta === '') return;
  const event: SkillLoopDelta = { type, delta };
  if (message) event.message = true;
  if (run.parentId !== undefined) event.parentId = run.parentId;
  deliver(run, event);
}

/** Passes on the `message` argument of the step's `finish_skill` calls as it streams (the reply, trimmed). */
function streamFinishMessage(run: SkillRun): NonNullable<CallModelOptions['onToolInputDelta']> {
  const readers = new Map<string, StringFieldReader>();
  return (call, delta) => {
    if (call.toolName !== finishSkillToolName) return false;
    let read = readers.get(call.id);
    if (!read) {
      read = createReplyFieldReader('message');
      readers.set(call.id, read);
    }
    const piece = read(delta);
    if (piece === '') return false;
    streamed(run, 'text-delta', piece, true);
    return true;
  };
}

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

function emptyPartial(): ModelResponse {
  return { text: '', reasoning: '', toolCalls: [], finishReason: 'error', inputTokens: 0, outputTokens: 0 };
}
