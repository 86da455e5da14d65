/**
 * The skill loop (seed 004 RVR-B, seed 000 skill execution) as an orchestrator of phase functions:
 * terminate? → react (one model call) → validate (the tool batch) → reflect (classify errors) →
 * backtrack (clean the context) → again. It always ends with exactly one `SkillOutcome`, returned once,
 * and never throws for anything the model, a tool or the clock does. Pseudo-code in
 * docs/architecture/skill-loop.md.
 */
import type { LanguageModelV3, LanguageModelV3Message, LanguageModelV3Prompt } from '@ai-sdk/provider';
import { ConfigurationError } from '../errors/index.js';
import type { SkillOutcome, ToolCallRequest, ToolCallResult } from '../spec/index.js';
import { type ToolBatchContext, type ToolSet, taintFromTranscript } from '../tool/index.js';
import { type Clock, type IdGenerator, randomIdGenerator, type StopSource } from '../util/index.js';
import type { StopReason } from './await-within.js';
import { backtrackPhase } from './backtrack-phase.js';
import { type ModelResponse, toModelError } from './call-model.js';
import { updateCircuitBreaker } from './circuit-breaker.js';
import { gracefulFailure } from './describe-progress.js';
import { checkRequiredTools } from './enforce-required-tools.js';
import { finishPhase, settleFinishCalls } from './finish-phase.js';
import { finishSkillToolName } from './finish-skill-tool.js';
import {
  emit,
  isStopRequested,
  type SkillRun,
  type StepCall,
  type TextToolCall,
} from './internal/skill-run.js';
import { reactPhase } from './react-phase.js';
import { reflectPhase } from './reflect-phase.js';
import { shouldTerminate } from './should-terminate.js';
import type { SkillLoopEvent, SkillLoopLiveEvent } from './skill-loop-events.js';
import { resolveSkillLoopLimits, type SkillLoopOverrides, type TaskComplexity } from './skill-loop-limits.js';
import { closeSkillLoopState, createSkillLoopState, type SkillLoopState } from './skill-loop-state.js';
import { assistantMessage, loopNote, textToolResultsMessage, toolMessage } from './skill-messages.js';
import { terminationOutcome } from './termination-outcome.js';
import { type ValidateResult, validatePhase } from './validate-phase.js';

export type { TextToolCall } from './internal/skill-run.js';
export type { SkillLoopEvent } from './skill-loop-events.js';

export interface RunSkillLoopOptions {
  model: LanguageModelV3;
  /** The prompt so far: system instructions, context, and the user's request. */
  prompt: LanguageModelV3Prompt;
  tools: ToolSet;
  batch: Omit<ToolBatchContext, 'tools'>;
  flow?: string;
  /** The flow or plan item the run belongs to; every event carries it. */
  parentId?: string;
  /** Picks the column of `defaultSkillLoopLimits`; `simple` when left out. */
  complexity?: TaskComplexity;
  /**
   * Overrides of the limits for this run, over the column of `complexity` (resolve agent and thread layers
   * with `resolveSkillLoopLimits`): `{ maxIterations: 8 }`. One that cannot take effect rejects the run
   * with a `ConfigurationError`.
   */
  limits?: SkillLoopOverrides;
  stream?: boolean;
  /** The user's stop: the run suspends with `user-stop`, in-flight work is aborted. */
  signal?: AbortSignal;
  /**
   * A stop that works as `signal` does, told by callback instead: the agent's, for its lease on the thread
   * lost to another process (docs/decisions/0037).
   */
  stop?: StopSource;
  /** Polled between phases: the user pressed stop or said they want to stop. */
  stopRequested?: () => boolean;
  /** Defaults to the batch's clock. */
  clock?: Clock;
  /** Tools this step must call successfully before it may succeed (seed 002 TAEF). */
  requiredTools?: readonly string[];
  /** Runs the reflection pass (evaluate, at most one revision) against these criteria. */
  reflection?: { successCriteria: string };
  /** Clean the context on backtrack (default true); off only to measure what cleaning saves. */
  cleanContextOnBacktrack?: boolean;
  /**
   * Reads calls the model wrote in its text (`<skill>…</skill>`) when it made no native tool call.
   * The seam for the text skill-call protocol parser of `src/tool`.
   */
  parseTextToolCalls?: (text: string) => readonly TextToolCall[];
  /** Makes ids for calls read from text (unique per turn: they are part of the idempotency key). */
  ids?: IdGenerator;
  /** Every event as it happens, plus streamed deltas of thinking and text. */
  onEvent?: (event: SkillLoopLiveEvent) => void;
  /** Continues a suspended run from its checkpoint (use `resumeSkillLoopState` on the state). */
  resume?: { messages: readonly LanguageModelV3Message[]; state: SkillLoopState };
}

export interface SkillLoopResult {
  outcome: SkillOutcome;
  /** Messages the loop added to the prompt (assistant steps, tool results, its own notes). */
  messages: LanguageModelV3Message[];
  events: SkillLoopEvent[];
  /** Model calls (react phases) in this invocation. */
  iterations: number;
  inputTokens: number;
  outputTokens: number;
  /** The run's control state: with `messages`, the checkpoint a suspended run resumes from. */
  state: SkillLoopState;
  /** Required-tool validation of a success: `passed: false` when it was taken after the last enforcement. */
  validation?: { requiredTools: string[]; missing: string[]; passed: boolean };
}

/**
 * @example
 * const { outcome } = await runSkillLoop({
 *   model, prompt: [{ role: 'system', content: 'Find the cheapest flight.' }],
 *   tools: createToolSet([findFlights]), batch: { threadId, turnId, clock, maxContextChars: 1500, redact },
 *   complexity: 'simple', parentId: flow.id,
 * });
 */
export async function runSkillLoop(options: RunSkillLoopOptions): Promise<SkillLoopResult> {
  const run = createRun(options);
  let outcome: SkillOutcome;
  try {
    outcome = await loop(run);
  } catch (error) {
    // A defect in the loop itself still ends the skill with an outcome rather than an exception.
    outcome = gracefulFailure({
      state: run.state,
      category: 'server_error',
      headline: `The skill loop failed: ${run.batch.redact.text(String(error))}.`,
    });
  }
  return finishRun(run, outcome);
}

function finishRun(run: SkillRun, outcome: SkillOutcome): SkillLoopResult {
  const result: SkillLoopResult = {
    outcome,
    messages: run.messages,
    events: run.events,
    iterations: run.state.iterations,
    inputTokens: run.state.inputTokens,
    outputTokens: run.state.outputTokens,
    state: closeSkillLoopState(run.state, run.clock.now()),
  };
  if (outcome.outcome === 'success' && run.requiredTools.length > 0) {
    const verdict = checkRequiredTools({ required: run.requiredTools, succeeded: run.state.succeededTools });
    result.validation = { requiredTools: [...run.requiredTools], ...verdict };
  }
  return result;
}

function createRun(options: RunSkillLoopOptions): SkillRun {
  const clock = options.clock ?? options.batch.clock;
  // The bound's old shorthand is refused rather than ignored (docs/decisions/0053-one-table-of-bounds.md).
  if (Object.hasOwn(options, 'maxIterations'))
    throw new ConfigurationError({
      message: 'runSkillLoop({ maxIterations }) was removed.',
      problems: ['maxIterations: set limits.maxIterations instead'],
    });
  const limits = resolveSkillLoopLimits({ complexity: options.complexity ?? 'simple', call: options.limits });
  const state = options.resume
    ? structuredClone(options.resume.state)
    : createSkillLoopState({ now: clock.now(), maxOutputTokens: limits.maxOutputTokens });
  return {
    model: options.model,
    prompt: options.prompt,
    flow: options.flow,
    parentId: options.parentId,
    stream: options.stream === true,
    signal: options.signal,
    stop: options.stop,
    stopRequested: options.stopRequested,
    clock,
    limits,
    tools: options.tools,
    // One taint state per run, restored from the transcript on resume (tool/tool-batch-context.ts).
    batch: {
      ...options.batch,
      tools: options.tools,
      taint: options.batch.taint ?? taintFromTranscript(options.resume?.messages ?? [], options.tools),
    },
    abort: undefined,
    stepBatch: undefined,
    requiredTools: options.requiredTools ?? [],
    successCriteria: options.reflection?.successCriteria,
    cleanOnBacktrack: options.cleanContextOnBacktrack !== false,
    parseTextToolCalls: options.parseTextToolCalls,
    ids: options.ids ?? randomIdGenerator,
    onEvent: options.onEvent,
    state,
    messages: [...(options.resume?.messages ?? [])],
    events: [],
  };
}

async function loop(run: SkillRun): Promise<SkillOutcome> {
  for (;;) {
    const verdict = shouldTerminate({
      state: run.state,
      limits: run.limits,
      now: run.clock.now(),
      stopRequested: isStopRequested(run),
    });
    if (verdict.terminate) {
      emit(run, { type: 'terminated', reason: verdict.reason });
      return terminationOutcome(verdict.reason, run.state, run.limits);
    }
    const reflecting = run.state.breaker.reflectionDue;
    if (reflecting) run.messages.push(loopNote('reflection-prompt', reflectionPrompt(run)));
    const reacted = await reactPhase(run, reflecting ? 'reflect' : 'act');
    if (reacted.kind === 'stopped') return stoppedOutcome(run, reacted.reason);
    if (reacted.kind === 'failed') return modelFailure(run, reacted.error);
    const response = reacted.response;
    if (reflecting) {
      // Tools were withheld: only the explanation is kept; any call the model made anyway is dropped.
      if (response.text.trim() !== '')
        run.messages.push(assistantMessage({ text: response.text, toolCalls: [] }));
      run.state.breaker = updateCircuitBreaker(
        run.state.breaker,
        { type: 'reflection-done' },
        run.limits,
      ).state;
      continue;
    }
    const step = readCalls(run, response);
    if (step.calls.length === 0) {
      const text = response.text.trim();
      if (text === '') return modelFailure(run, new Error('The model answered with nothing.'));
      run.messages.push(assistantMessage({ text, toolCalls: [] }));
      const decision = await finishPhase(run, { outcome: 'success', data: { text }, scratchpadEntries: [] });
      if (decision.accept) return decision.outcome;
      run.messages.push(loopNote(decision.kind, decision.feedback));
      continue;
    }
    const outcome = await runCalls(run, response, step);
    if (outcome) return outcome;
  }
}

type Step = { calls: StepCall[]; viaText: boolean };

/** Validate, settle `finish_skill`, record the step, then reflect and backtrack; an outcome ends the run. */
async function runCalls(
  run: SkillRun,
  response: ModelResponse,
  step: Step,
): Promise<SkillOutcome | undefined> {
  if (step.calls.some((c) => c.toolName === finishSkillToolName))
    return runFinishingCalls(run, response, step);
  const validated = await validatePhase(run, step.calls);
  return recordStep(run, response, step, validated, validated.results, undefined);
}

/** A step with `finish_skill`: the other calls run first, then the finish is settled against their results. */
async function runFinishingCalls(
  run: SkillRun,
  response: ModelResponse,
  step: Step,
): Promise<SkillOutcome | undefined> {
  const finishes = step.calls.filter((c) => c.toolName === finishSkillToolName);
  const others = step.calls.filter((c) => c.toolName !== finishSkillToolName);
  const validated = await validatePhase(run, others);
  const settled = await settleFinishCalls(run, finishes, validated);
  const results = new Map<string, ToolCallResult>(validated.results.map((r) => [r.callId, r]));
  for (const r of settled.results) results.set(r.callId, r);
  const ordered = step.calls.map((c) => results.get(c.callId) as ToolCallResult);
  return recordStep(run, response, step, validated, ordered, settled.accepted);
}

/** Records the step in the transcript (results in call order), then reflects; an outcome ends the run. */
function recordStep(
  run: SkillRun,
  response: ModelResponse,
  step: Step,
  validated: ValidateResult,
  ordered: ToolCallResult[],
  accepted: SkillOutcome | undefined,
): SkillOutcome | undefined {
  const suspended = validated.results.find((r) => r.status === 'suspended');
  if (step.viaText) {
    run.messages.push(assistantMessage({ text: response.text, toolCalls: [] }));
    run.messages.push(textToolResultsMessage(ordered));
  } else {
    run.messages.push(assistantMessage(response));
    run.messages.push(toolMessage(ordered));
  }
  if (suspended && suspended.status === 'suspended') {
    reflectPhase(run, validated);
    return {
      outcome: 'suspended',
      kind: 'tool',
      callId: suspended.callId,
      toolName: suspended.toolName,
      reason: suspended.reason,
    };
  }
  if (validated.stopped) {
    reflectPhase(run, validated);
    return stoppedOutcome(run, validated.stopped);
  }
  if (accepted) return accepted;
  const decision = reflectPhase(run, validated);
  if (decision.decision === 'escalate')
    return {
      outcome: 'suspended',
      kind: 'escalate',
      callId: decision.callId ?? '',
      toolName: decision.toolName ?? '',
      reason: decision.reason,
    };
  if (decision.decision === 'fail-gracefully') {
    const error = validated.results.find((r) => r.status === 'error');
    return gracefulFailure({
      state: run.state,
      category: error?.status === 'error' ? error.error.category : 'server_error',
      headline: `The skill cannot finish: ${decision.reason}.`,
    });
  }
  if (decision.decision === 'backtrack') backtrackPhase(run, { decision, results: validated.results });
  return undefined;
}

/** The step's calls: native tool calls, or else calls written in the text when a parser is given. */
function readCalls(run: SkillRun, response: ModelResponse): { calls: StepCall[]; viaText: boolean } {
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

function reflectionPrompt(run: SkillRun): string {
  const recent = run.state.failures
    .slice(-run.limits.errorsBeforeReflection)
    .map((f) => `- ${f.toolName}: ${f.category}: ${f.message.replace(/\s+/g, ' ').slice(0, 160)}`);
  return [
    `${run.state.breaker.consecutiveErrors} tool calls in a row failed:`,
    ...recent,
    'Tools are withheld for this reply. Before you continue, explain in a few sentences what is going wrong and what you will do differently. Do not call any tool now.',
  ].join('\n');
}

function stoppedOutcome(run: SkillRun, reason: StopReason): SkillOutcome {
  const termination = reason === 'user-stop' ? 'user-stop' : reason;
  emit(run, { type: 'terminated', reason: termination });
  return terminationOutcome(termination, run.state, run.limits);
}

function modelFailure(run: SkillRun, error: unknown): SkillOutcome {
  const message = run.batch.redact.text(toModelError('skill', error).message);
  return gracefulFailure({ state: run.state, category: 'model_error', headline: ensurePeriod(message) });
}

function ensurePeriod(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
