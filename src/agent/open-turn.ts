/**
 * Opens a turn: its record on the loaded thread, the conversation the model sees, the in-flight record
 * saved before any model or tool is called (docs/decisions/0017-replayable-turns.md), the recorded model,
 * and what running a flow or a plan needs for this turn. What it returns is all the shell carries.
 */
import type { LanguageModelV3Prompt } from '@ai-sdk/provider';
import { ThreadBusyError } from '../errors/index.js';
import { answerWaitingFlow } from '../hitl/resume/index.js';
import type { TurnTelemetry } from '../observe/index.js';
import type { AgentConfig, SendOptions } from '../options/index.js';
import { mergeExecutionOptions, type PlanOptions, resolveExecutionConfig } from '../plan/index.js';
import type { PlanRuntime } from '../plan/loop/index.js';
import type { LoopContext } from '../policy/run/index.js';
import { createBackgroundRunner } from '../policy/run/index.js';
import {
  type InflightTurn,
  type ModelRecorder,
  noteRunning,
  recordModelCalls,
  settleInterruptedAudit,
  startInflight,
} from '../replay/index.js';
import type { ExecutionConfig, ExecutionOptions } from '../spec/index.js';
import { createFreshJournal } from '../tool/index.js';
import type { LiveTurn } from '../turn/index.js';
import {
  commitTurn,
  createLiveTextRelay,
  createTurnRecord,
  type LiveTextRelay,
  type LoadedThread,
  openThreadTaint,
  type RunFlowsOptions,
  readRecentMessages,
  type TurnState,
  toModelPrompt,
} from '../turn/index.js';
import type { StopSource } from '../util/index.js';

/**
 * A send that holds the thread's lease: the lease stops the turn's work when it is lost; `live` tells
 * whether the user said stop while the turn runs.
 */
export type LeasedSend = SendOptions & {
  lease: StopSource;
  live?: Pick<LiveTurn, 'stopRequested' | 'stopText'>;
  /** The fingerprint of the message sent under `requestId`, kept to catch a reused id. */
  requestHash?: string;
};

/** What a turn runs on: a user's message, an answer to a suspension, or a turn whose process died. */
export type TurnInput =
  | { text: string }
  | { answer: string; suspensionId: string }
  | { interrupted: InflightTurn };

/** One turn under way: its record and everything its effects need. */
export interface OpenTurn {
  config: AgentConfig;
  turn: TurnState;
  inflight: InflightTurn;
  /** The user's message (or the answer) this turn runs on. */
  text: string;
  /** The conversation before the message, oldest first. */
  history: { role: 'user' | 'assistant'; text: string }[];
  /** The flow loop of this turn: what running a flow needs, recovery guidance, background flows. */
  loop: LoopContext;
  /** Present when plans are on. */
  plan: PlanRuntime | undefined;
  /** The turn is past routing: a replay of a turn that was running, or an answer to a waiting run. */
  routed: boolean;
  /** The turn ran out of attempts: its process died too often. */
  exhausted: boolean;
  /** The stop message the user sent while the turn ran, if one came. */
  stopText(): string | undefined;
  /** Saves the turn so far, mid-turn (a plan saves before and after each item). */
  save(): Promise<void>;
}

export async function openTurn(
  config: AgentConfig,
  request: LeasedSend,
  loaded: LoadedThread,
  input: TurnInput & { turnId: string; telemetry: TurnTelemetry },
): Promise<OpenTurn> {
  const { store, clock, limits, bus } = config;
  const turn = createTurnRecord({
    threadId: request.threadId,
    turnId: input.turnId,
    snapshot: loaded.snapshot,
    baseVersion: loaded.version,
    clock,
    lease: request.lease,
    // What closing an interrupted turn reported is saved with this turn's first commit.
    ...(loaded.carried ? { carried: loaded.carried } : {}),
  });
  const interrupted = 'interrupted' in input ? input.interrupted : undefined;
  const text =
    'interrupted' in input ? input.interrupted.text : 'answer' in input ? input.answer : input.text;
  const recent = (await readRecentMessages(store, turn.snapshot, limits.recentMessages)).filter(
    (m) => interrupted === undefined || m.seq < interrupted.messageSeq,
  );
  recent.splice(0, recent.length - (limits.recentMessages - 1));
  const history = recent.map((m) => ({ role: m.role, text: m.text }));
  // Untrusted content earlier turns brought in and this turn's context still holds taints it from the start.
  openThreadTaint(turn, recent);
  // A replay first settles the audit rows the dead process left started.
  if (interrupted) await settleInterruptedAudit({ store, clock, threadId: turn.threadId });
  const inflight = startInflight(turn, text, {
    ...(request.requestId !== undefined ? { requestId: request.requestId } : {}),
    ...(request.requestHash !== undefined ? { requestHash: request.requestHash } : {}),
    ...(interrupted ? { interrupted } : {}),
    ...('answer' in input ? { answers: input.suspensionId } : {}),
  });
  await commitTurn(turn, store, bus);
  // What the saved part of the turn said is said again: the replay does not redo that work.
  if (interrupted?.replyParts) turn.replyParts.push(...interrupted.replyParts);
  const recorder = recordModelCalls({
    model: config.model,
    store,
    threadId: turn.threadId,
    turnId: turn.turnId,
    clock,
    redact: config.redact,
    ...(interrupted?.modelCalls ? { counters: interrupted.modelCalls } : {}),
    fresh: interrupted === undefined,
  });
  const flowOptions = runFlowsOptions(config, request, turn, {
    execution: turnExecution(config, request, turn),
    recorder,
    telemetry: input.telemetry,
    context: toModelPrompt([...recent, { seq: 0, role: 'user', text, turnId: turn.turnId }]),
    history: [...history, { role: 'user', text }],
    fresh: interrupted === undefined,
  });
  const save = () => saveTurn(config, turn, inflight, recorder);
  return {
    config,
    turn,
    inflight,
    text,
    history,
    loop: {
      options: flowOptions,
      turn,
      guidance: undefined,
      background: createBackgroundRunner(flowOptions),
    },
    plan: config.plan ? planRuntime(config, { flowOptions, settings: config.plan, save }) : undefined,
    routed: inflight.phase === 'running' || answerWaitingFlow(turn, text, clock.now()),
    exhausted: inflight.attempts > limits.maxTurnAttempts,
    stopText: () => request.live?.stopText,
    save,
  };
}

/** What running a flow needs in this turn: the agent's flows and tools, the turn's model and tool batch. */
function runFlowsOptions(
  config: AgentConfig,
  request: LeasedSend,
  turn: TurnState,
  parts: {
    execution: ExecutionConfig;
    recorder: ModelRecorder;
    telemetry: TurnTelemetry;
    context: LanguageModelV3Prompt;
    history: RunFlowsOptions['history'];
    fresh: boolean;
  },
): RunFlowsOptions {
  const { options, limits, redact } = config;
  const { signal } = request;
  const stream = options.stream === true || request.stream === true;
  // The reply goes out live when the caller reads the turn live, or someone follows the thread's progress
  // as it starts. A call whose text went out live is not asked again when it fails mid-stream, so a turn
  // nobody watches keeps its retries (docs/decisions/0060).
  const live = request.stream === true || (stream && config.bus.wantsProgress(turn.threadId));
  return {
    turn,
    flows: config.flows,
    tools: config.tools,
    model: parts.telemetry.wrapModel(parts.recorder.model),
    persona: config.persona,
    context: parts.context,
    ...(parts.history ? { history: parts.history } : {}),
    // The pipeline's parts first, this turn's over them (assigned: docs/decisions/0064).
    batch: Object.assign({}, config.toolPipeline, {
      threadId: turn.threadId,
      turnId: turn.turnId,
      clock: config.clock,
      store: config.store,
      maxContextChars: limits.maxToolResultChars,
      redact,
      sealer: config.sealer,
      // Every execution is reported to the turn's telemetry by the pipeline; the tools stay the agent's own.
      observeExecution: parts.telemetry.observeTool,
      // A turn begun here under a new id has no journal rows but its own: its calls skip the read.
      freshJournal: parts.fresh ? createFreshJournal(turn.turnId) : undefined,
      // One taint state for every skill run of the turn, seeded from the thread's (turn/thread-taint.ts).
      ...(turn.taint ? { taint: turn.taint.state } : {}),
      ...(turn.snapshot.principal !== undefined ? { principal: turn.snapshot.principal } : {}),
      ...(signal ? { signal } : {}),
    }),
    limits,
    execution: parts.execution,
    telemetry: parts.telemetry,
    ids: config.ids,
    ...(options.preferences ? { preferences: options.preferences } : {}),
    ...(options.domain ? { domain: options.domain } : {}),
    ...(stream ? { stream: true } : {}),
    ...(options.toolCalling === 'text' ? { toolCalling: 'text' as const } : {}),
    ...(live ? { onSkillEvent: liveTextRelay(config, turn) } : {}),
    ...(signal ? { signal } : {}),
    stopRequested: () => isStopRequested(request),
  };
}

/** The user asked to stop the turn: a stop message came while it ran, or the caller's signal was aborted. */
function isStopRequested(request: LeasedSend): boolean {
  return request.live?.stopRequested() === true || request.signal?.aborted === true;
}

/** Where a streaming turn's reply goes as it is written: the agent's bus, as live progress. */
function liveTextRelay(config: AgentConfig, turn: TurnState): LiveTextRelay {
  const { bus, clock, options } = config;
  return createLiveTextRelay({
    threadId: turn.threadId,
    turnId: turn.turnId,
    clock,
    publish: (observations) => bus.publish(observations),
    ...(options.redact ? { redact: options.redact.text } : {}),
  });
}

/**
 * The execution settings of this turn, for every skill run in it: the call's over the thread's over the
 * agent's. `threadExecution` is saved with the thread (in the snapshot this turn commits).
 */
function turnExecution(config: AgentConfig, request: SendOptions, turn: TurnState): ExecutionConfig {
  const saved = turn.snapshot.extensions.execution as ExecutionOptions | undefined;
  const thread = request.threadExecution ? mergeExecutionOptions(saved, request.threadExecution) : saved;
  if (request.threadExecution) turn.snapshot.extensions = { ...turn.snapshot.extensions, execution: thread };
  if (thread === undefined && request.execution === undefined) return config.execution;
  return resolveExecutionConfig({ agent: config.options.execution, thread, call: request.execution });
}

/** What the plan loop needs for this turn. */
function planRuntime(
  config: AgentConfig,
  parts: { flowOptions: RunFlowsOptions; settings: PlanOptions; save: () => Promise<void> },
): PlanRuntime {
  const { flowOptions, settings, save } = parts;
  const { turn: _turn, ...shared } = flowOptions;
  return {
    ...shared,
    tools: config.planTools,
    ids: config.ids,
    settings,
    store: config.store,
    save,
    ...(config.delegation ? { delegation: config.delegation } : {}),
  };
}

/** Saves the turn mid-way and renews its lease: a long plan that lost it stops rather than race another worker. */
async function saveTurn(
  config: AgentConfig,
  turn: TurnState,
  inflight: InflightTurn,
  recorder: ModelRecorder,
): Promise<void> {
  noteRunning(turn, inflight, recorder.counters());
  await commitTurn(turn, config.store, config.bus);
  const renewed = await config.store.acquireLease({
    threadId: turn.threadId,
    owner: config.owner,
    ttlMs: config.limits.leaseTtlMs,
    now: config.clock.now(),
  });
  if (!renewed) throw new ThreadBusyError({ threadId: turn.threadId });
}
