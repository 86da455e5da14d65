/**
 * What the execution phase of a turn shares between the user-facing loop and the background runner.
 */
import type { LanguageModelV3, LanguageModelV3Prompt } from '@ai-sdk/provider';
import type { DialogueState, FlowDefinition } from '../flow/index.js';
import type { SkillLoopEvent } from '../loop/index.js';
import type { HistoryMessage } from '../memory/index.js';
import type { TurnTelemetry } from '../observe/index.js';
import type { ExecuteFlowOptions } from '../policy/index.js';
import type { ExecutionConfig, FlowInstance, ScratchpadEntry } from '../spec/index.js';
import type { ToolBatchContext, ToolSet } from '../tool/index.js';
import type { IdGenerator } from '../util/index.js';
import { observe, record, type TurnState } from './turn-state.js';
import type { AgentLimits } from './turn-types.js';

export interface RunFlowsOptions {
  turn: TurnState;
  flows: ReadonlyMap<string, FlowDefinition>;
  tools: ToolSet;
  model: LanguageModelV3;
  persona: string;
  domain?: string;
  context: LanguageModelV3Prompt;
  /** The conversation so far including the current message, oldest first. */
  history?: readonly HistoryMessage[];
  /** The agent's default preferences (the thread's own override them). */
  preferences?: Readonly<Record<string, unknown>>;
  batch: Omit<ToolBatchContext, 'tools'>;
  limits: AgentLimits;
  /**
   * The turn's execution settings, resolved call > thread > agent: every skill run of the turn (flow,
   * plan item, background flow) runs within the skill loop's bounds for its complexity from here.
   */
  execution: ExecutionConfig;
  ids?: IdGenerator;
  stream?: boolean;
  signal?: AbortSignal;
  /** Opens a span per flow run. */
  telemetry?: TurnTelemetry;
}

/** The options of `executeFlow` that do not depend on the flow being run. */
export function executionOptions(
  options: RunFlowsOptions,
  input: {
    state: DialogueState;
    flow: FlowInstance;
    /** The flow's definition when it is not the agent's own (a plan step's). */
    definition?: FlowDefinition;
    scratchpad: readonly ScratchpadEntry[];
    guidance?: string;
  },
): ExecuteFlowOptions {
  const definition = input.definition ?? options.flows.get(input.flow.name);
  const ids = options.ids;
  let tables = 0;
  return {
    state: input.state,
    definition,
    tools: options.tools,
    model: options.model,
    persona: options.persona,
    ...(options.domain ? { domain: options.domain } : {}),
    context: options.context,
    history: options.history ?? [],
    scratchpad: input.scratchpad,
    preferences: { ...options.preferences, ...options.turn.snapshot.preferences },
    previous: options.turn.finished ?? [],
    batch: options.batch,
    limits: options.execution.skillLoop[definition?.complexity ?? 'simple'],
    maxScratchpadEntries: options.limits.maxScratchpadEntries,
    nextTableId: () => (ids ? ids('table') : `${options.turn.turnId}:table:${++tables}`),
    ...(input.guidance ? { guidance: input.guidance } : {}),
    ...(options.stream ? { stream: true } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.turn.lease ? { stop: options.turn.lease } : {}),
  };
}

/** Records a skill run's tool calls and results as history rows and observations linked to the flow. */
export function recordLoopEvents(turn: TurnState, flowId: string, events: readonly SkillLoopEvent[]): void {
  // Recorded together once the run has returned: one reading of the clock for all of them.
  const time = turn.clock.now();
  for (const event of events) {
    if (event.type === 'tool-call') {
      const { callId, toolName, input } = event;
      record(turn, 'tool-call', { flowId, callId, toolName, input });
      observe(turn, 'tool-call', { callId, toolName }, flowId, time);
    } else if (event.type === 'tool-result') {
      const { result } = event;
      record(turn, 'tool-result', { flowId, ...result });
      observe(
        turn,
        'tool-execution',
        { callId: result.callId, toolName: result.toolName, status: result.status },
        flowId,
        time,
      );
    } else if (event.type === 'thoughts') observe(turn, 'thoughts', { text: event.text }, flowId, time);
    else if (event.type === 'enforcement') {
      const { missing, retry, passed } = event;
      observe(turn, 'recovery', { action: 'enforcement', missing, retry, passed }, flowId, time);
    } else if (event.type === 'transcript-repaired') {
      const { recorded, interrupted, dropped } = event;
      observe(
        turn,
        'recovery',
        { action: 'transcript-repaired', recorded, interrupted, dropped },
        flowId,
        time,
      );
    }
  }
}
