/**
 * What the execution phase of a turn shares between the user-facing loop and the background runner.
 */
import { isDeepStrictEqual } from 'node:util';
import type { LanguageModelV3, LanguageModelV3Prompt } from '@ai-sdk/provider';
import type { DialogueState, FlowDefinition } from '../flow/index.js';
import type { SkillLoopEvent, SkillLoopLiveEvent } from '../loop/index.js';
import type { HistoryMessage } from '../memory/index.js';
import type { TurnTelemetry } from '../observe/index.js';
import type { ExecuteFlowOptions } from '../policy/index.js';
import type { ExecutionConfig, FlowInstance, ScratchpadEntry } from '../spec/index.js';
import type { Redactor, ToolBatchContext, ToolSet } from '../tool/index.js';
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
  /** How the skill runs' model calls tools (`AgentOptions.toolCalling`); native by default. */
  toolCalling?: 'native' | 'text';
  /**
   * Receives the live events of the skill runs the user waits for (flows and plan items, not background
   * flows), streamed deltas included: the agent passes them on to the turn's live channel.
   */
  onSkillEvent?: (event: SkillLoopLiveEvent) => void;
  signal?: AbortSignal;
  /**
   * The user asked to stop while the turn runs (a stop message on the thread): the skill runs of the
   * flows the user waits for end at their next safe point.
   */
  stopRequested?: () => boolean;
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
    ...(options.toolCalling === 'text' ? { toolCalling: 'text' as const } : {}),
    ...(options.onSkillEvent ? { onEvent: options.onSkillEvent } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.turn.lease ? { stop: options.turn.lease } : {}),
    ...(options.stopRequested ? { stopRequested: options.stopRequested } : {}),
  };
}

/**
 * Records a skill run's tool calls and results as history rows and observations linked to the flow. The
 * model's arguments are stored redacted (DESIGN.md invariant 8): a call that must run again later with the
 * real values (an approval, a replay) takes them from the suspended run or the journal, never from here.
 */
export function recordLoopEvents(
  turn: TurnState,
  flowId: string,
  events: readonly SkillLoopEvent[],
  redact: Redactor,
): void {
  // Recorded together once the run has returned: one reading of the clock for all of them.
  const time = turn.clock.now();
  for (const event of events) {
    if (event.type === 'tool-call') {
      const { callId, toolName } = event;
      const input = redactArguments(event.input, redact);
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

/**
 * The model's argument text, redacted. Parsed JSON is redacted as data, so that a whole value under a
 * secret-named key goes (`"password": ["a", "b"]`); text that is not JSON is redacted as text.
 */
function redactArguments(input: string, redact: Redactor): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(input);
  } catch {
    return redact.text(input);
  }
  const redacted = redact.value(parsed);
  // Text with nothing to redact is kept exactly as the model wrote it.
  if (isDeepStrictEqual(redacted, parsed)) return input;
  return JSON.stringify(redacted) ?? redact.text(input);
}
