/**
 * The inputs of one PEX `execute()` of the active flow, in a file of their own because every phase of
 * `executeFlow` reads them.
 */
import type { LanguageModelV3, LanguageModelV3Prompt } from '@ai-sdk/provider';
import type { DialogueState, FlowDefinition } from '../flow/index.js';
import type { RunSkillLoopOptions, SkillLoopLimits } from '../loop/index.js';
import type { HistoryMessage } from '../memory/index.js';
import type { FlowInstance, ScratchpadEntry } from '../spec/index.js';
import type { ToolBatchContext, ToolSet } from '../tool/index.js';
import type { StopSource } from '../util/index.js';

export interface ExecuteFlowOptions {
  state: DialogueState;
  definition: FlowDefinition | undefined;
  tools: ToolSet;
  model: LanguageModelV3;
  persona: string;
  domain?: string;
  /** Recent conversation, ending with the user's latest message. */
  context: LanguageModelV3Prompt;
  history: readonly HistoryMessage[];
  scratchpad: readonly ScratchpadEntry[];
  preferences: Readonly<Record<string, unknown>>;
  /** Flows finished earlier in the thread, most recent last (read by the flow_stack tool). */
  previous: readonly FlowInstance[];
  batch: Omit<ToolBatchContext, 'tools'>;
  maxScratchpadEntries: number;
  nextTableId: () => string;
  /** Call-specific guidance for the skill (a retry hint, a plan item's context). */
  guidance?: string;
  /** Tools the skill must call successfully before it may succeed (seed 002 TAEF; plan items). */
  requiredTools?: readonly string[];
  /**
   * The skill loop's bounds for this run, over the defaults of the flow's complexity (the agent passes its
   * turn's resolved column: `RunFlowsOptions.execution`).
   */
  limits?: Partial<SkillLoopLimits>;
  /** Continues a suspended run from its checkpoint. */
  resume?: RunSkillLoopOptions['resume'];
  stream?: boolean;
  /** The skill run's live events as they happen, streamed deltas included (`RunSkillLoopOptions.onEvent`). */
  onEvent?: RunSkillLoopOptions['onEvent'];
  signal?: AbortSignal;
  /** Ends the skill run as the user's stop does, when the caller asks (the agent: its thread lease was lost). */
  stop?: StopSource;
  /**
   * Polled at the skill loop's safe points (between phases): the user asked to stop while the turn runs
   * (seed 004 adaptive termination, the intent `wants_to_stop`). The run ends as on a user's stop.
   */
  stopRequested?: () => boolean;
}
