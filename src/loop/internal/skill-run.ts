/**
 * The working record of one skill-loop invocation, shared by its phase functions: the options in
 * force, the control state, the transcript the loop adds, and the events so far. Nothing outside the
 * loop sees it until `runSkillLoop` returns.
 */
import type {
  LanguageModelV3,
  LanguageModelV3FunctionTool,
  LanguageModelV3Message,
  LanguageModelV3Prompt,
} from '@ai-sdk/provider';
import type { ToolCallRequest } from '../../spec/index.js';
import type { ToolBatchContext, ToolSet } from '../../tool/index.js';
import type { Clock, IdGenerator, StopSource } from '../../util/index.js';
import type { WithinDeadlines } from '../await-within.js';
import { createRunWatch, type RunWatch } from '../run-watch.js';
import type { SkillLoopEvent, SkillLoopLiveEvent } from '../skill-loop-events.js';
import type { SkillLoopLimits } from '../skill-loop-limits.js';
import type { SkillLoopState } from '../skill-loop-state.js';

/**
 * A call the model made in its text (a `<skill>` block) rather than as a native tool call: read, with
 * its argument text (JSON), or unreadable, with the problem — answered to the model as a validation
 * error without running. The shape of the tool pipeline's `parseSkillCalls` entries.
 */
export type TextToolCall =
  | { toolName: string; input: string; callId?: string; parallelGroup?: string }
  | { toolName: string; problem: string; callId?: string };

/** One call of a step; `problem` marks a call written in text that could not be read. */
/** `parsed`: the arguments as JSON when the react phase read them already (read-only). */
export type StepCall = ToolCallRequest & { problem?: string; parsed?: unknown };

export interface SkillRun {
  model: LanguageModelV3;
  prompt: LanguageModelV3Prompt;
  flow: string | undefined;
  parentId: string | undefined;
  stream: boolean;
  signal: AbortSignal | undefined;
  /** A stop told by callback, which ends the run as `signal` does (see `RunSkillLoopOptions.stop`). */
  stop: StopSource | undefined;
  stopRequested: (() => boolean) | undefined;
  clock: Clock;
  limits: SkillLoopLimits;
  tools: ToolSet;
  batch: ToolBatchContext;
  /** The batch context the last tool batch ran with (reused while its tools and signal stay). */
  stepBatch: ToolBatchContext | undefined;
  /**
   * The signal of the run's model calls and tool batches: one controller for the whole run, replaced
   * only after a call was stopped (see `sharedController`).
   */
  abort: AbortController | undefined;
  /** The transcript the run was handed was checked for unpaired tool calls and results (`repairTranscript`). */
  transcriptChecked: boolean;
  /** The watch over the run's limits and stop, made at its first call (see `watchOf`). */
  watch: RunWatch | undefined;
  requiredTools: readonly string[];
  successCriteria: string | undefined;
  cleanOnBacktrack: boolean;
  parseTextToolCalls: ((text: string) => readonly TextToolCall[]) | undefined;
  /** `text`: no tool is sent with the request; the prompt describes them and the calls are read from the text. */
  toolCalling: 'native' | 'text';
  ids: IdGenerator;
  onEvent: ((event: SkillLoopLiveEvent) => void) | undefined;
  state: SkillLoopState;
  messages: LanguageModelV3Message[];
  events: SkillLoopEvent[];
  /** Appended to the model's call ids in a resumed invocation (see `resumed-call-ids.ts`). */
  callIdSuffix: string | undefined;
}

/**
 * Records an event and hands it to the live listener. Each event is a record the loop has just made for
 * this call, so it is linked to the run's `parentId` in place.
 */
export function emit(run: SkillRun, event: SkillLoopEvent): void {
  if (run.parentId !== undefined) event.parentId = run.parentId;
  run.events.push(event);
  deliver(run, event);
}

/** Hands a live-only event to the listener; a listener that throws never breaks the run. */
export function deliver(run: SkillRun, event: SkillLoopLiveEvent): void {
  if (!run.onEvent) return;
  try {
    run.onEvent(event);
  } catch {
    // A failing observer must not change what the skill does.
  }
}

/** Marks model output or a tool result: the idle limit counts from here. */
export function touch(run: SkillRun): void {
  run.state.lastActivityAt = run.clock.now();
}

/** The run's idle and wall-clock limits and the user's stop, for `awaitWithin`. */
export function deadlines(run: SkillRun): WithinDeadlines {
  return {
    clock: run.clock,
    idleDeadline: () => run.state.lastActivityAt + run.limits.maxIdleMs,
    wallDeadline: run.state.startedAt + run.limits.maxWallMs - run.state.priorElapsedMs,
    signal: run.signal,
    stop: run.stop,
  };
}

/** The watch that the run's model calls and tool batches wait under; `runSkillLoop` closes it. */
export function watchOf(run: SkillRun): RunWatch {
  run.watch ??= createRunWatch(deadlines(run));
  return run.watch;
}

/** The user asked to stop: the signal aborted, the stop was asked for, or the stop flag is up. */
export function isStopRequested(run: SkillRun): boolean {
  if (run.signal?.aborted || run.stop?.stopped) return true;
  try {
    return run.stopRequested?.() === true;
  } catch {
    return false;
  }
}

/** Tool names offered to the model now: the run's tools minus the withdrawn ones. */
export function offeredToolNames(run: SkillRun): string[] {
  const withdrawn = new Set(run.state.breaker.withdrawn);
  return [...run.tools.keys()].filter((name) => !withdrawn.has(name));
}

export type ModelTools = LanguageModelV3FunctionTool[];

/**
 * The controller whose signal the run's next model call or tool batch gets: one per run, as the AI SDK's
 * own loop hands one signal to every step of a run. It is aborted only when a call is stopped — the run
 * then ends — and a new one is made if the run goes on anyway. Tools never see it: each call gets a signal
 * of its own. Kept for its cost, docs/decisions/0034.
 */
export function sharedController(run: SkillRun): AbortController {
  const current = run.abort;
  if (current && !current.signal.aborted) return current;
  const fresh = new AbortController();
  run.abort = fresh;
  return fresh;
}
