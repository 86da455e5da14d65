/**
 * The inputs of one skill-loop invocation, in a file of their own because `runSkillLoop` and the phase
 * that builds the run's working record (`createSkillRun`) both read them.
 */
import type { LanguageModelV3, LanguageModelV3Message, LanguageModelV3Prompt } from '@ai-sdk/provider';
import type { ToolBatchContext, ToolSet } from '../tool/index.js';
import type { Clock, IdGenerator, StopSource } from '../util/index.js';
import type { TextToolCall } from './internal/skill-run.js';
import type { SkillLoopLiveEvent } from './skill-loop-events.js';
import type { SkillLoopOverrides, TaskComplexity } from './skill-loop-limits.js';
import type { SkillLoopState } from './skill-loop-state.js';

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
   * A stop that works as `signal` does, told by callback instead (the agent's: its lease on the thread
   * was lost to another process).
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
  /**
   * How the model calls tools: `native` (default) sends them with the request; `text`, for a model without
   * native tool calling, sends none, describes them and the `<skill>name(…)</skill>` syntax in the system
   * prompt, and reads the calls from the text (with `parseSkillCalls` unless `parseTextToolCalls` is given).
   * The live text then shows the prose, not the calls.
   */
  toolCalling?: 'native' | 'text';
  /** Makes ids for calls read from text (unique per turn: they are part of the idempotency key). */
  ids?: IdGenerator;
  /** Every event as it happens, plus streamed deltas of thinking and text. */
  onEvent?: (event: SkillLoopLiveEvent) => void;
  /** Continues a suspended run from its checkpoint (use `resumeSkillLoopState` on the state). */
  resume?: { messages: readonly LanguageModelV3Message[]; state: SkillLoopState };
}
