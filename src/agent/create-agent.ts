/**
 * `createAgent()`: the turn loop of DESIGN.md §1, calling one phase function per step. Pseudo-code in
 * docs/architecture/turn-loop.md.
 *
 * This file is longer than 400 lines: it is the one closure that holds an agent's store, bus, clock, ids
 * and limits, and its entry points (`send`, `resume`, `rollback`, `readThread`) share them with the turn
 * they run. Every phase of a turn lives in its own file; what stays here is how they are wired.
 */
import type { LanguageModelV3Prompt } from '@ai-sdk/provider';
import { createA2AClientPool, createDelegateToAgentTool, defaultA2ADelegationLimits } from '../a2a/index.js';
import {
  createFileSnapshotService,
  listFileSnapshots,
  type RollbackOptions,
  rollbackFiles,
  sweepFileSnapshots,
} from '../consistency/index.js';
import { ConfigurationError, ModelError, ThreadBusyError, ThreadNotFoundError } from '../errors/index.js';
import { type FlowDefinition, toFlowDefinition, validateDomain } from '../flow/index.js';
import { readSuspendedRun, writeSuspendedRun } from '../hitl/index.js';
import {
  answerRunFromText,
  describeAnswer,
  describeSuspension,
  listSuspensions,
  openSuspensions,
  recordAnswer,
} from '../hitl/resume/index.js';
import { defaultSkillLoopLimits, type SkillLoopLimits } from '../loop/index.js';
import { prepareInput, routeTurn } from '../nlu/index.js';
import { createObservationBus, createTurnTelemetry, type TurnTelemetry } from '../observe/index.js';
import {
  checkExecutionConfig,
  defaultPlanOptions,
  planFlow,
  resolveExecutionConfig,
  updatePlanTool,
} from '../plan/index.js';
import type { PlanRuntime } from '../plan/loop/index.js';
import { routePlanMessage } from '../plan/loop/index.js';
import { redactSecrets, redactValue } from '../redact/index.js';
import {
  closeInterruptedTurn,
  endInflight,
  findRequest,
  type InflightTurn,
  interruptedTurnOf,
  recordModelCalls,
  repeatedResult,
  startInflight,
  unfinishedCalls,
} from '../replay/index.js';
import { composeReply } from '../respond/index.js';
import type { ExecutionConfig, RollbackReport } from '../spec/index.js';
import { createSqliteStore } from '../store/index.js';
import {
  createFreshJournal,
  createMemoryRateLimiter,
  createMemorySimulationCache,
  createModelSimulator,
  createToolSet,
} from '../tool/index.js';
import type { RunFlowsOptions } from '../turn/index.js';
import {
  commitTurn,
  type LoadedThread,
  loadOrCreateThread,
  loadThread,
  observe,
  readRecentMessages,
  record,
  type TurnState,
} from '../turn/index.js';
import { randomIdGenerator, type StopSource, systemClock } from '../util/index.js';
import type {
  Agent,
  AgentOptions,
  ConversationMessage,
  ResumeOptions,
  SendOptions,
  ThreadView,
  TurnResult,
} from './agent-types.js';
import { defaultAgentLimits } from './default-limits.js';
import { prepareFirstTurn } from './prepare-first-turn.js';
import { runFlows } from './run-flows.js';
import { createThreadLease } from './thread-lease.js';
import { warmUpProcess } from './warm-up.js';

/** A send that holds the thread's lease: the lease stops the turn's work when it is lost. */
type LeasedSend = SendOptions & { lease: StopSource };

const defaultPersona =
  'You are a careful assistant. Use the tools you are given; never invent their results.';

/**
 * @example
 * const agent = createAgent({ model, flows: [bookTrip], tools: [findFlights, bookFlight] });
 * const turn = await agent.send({ threadId: 'thread-1', text: 'Book me a flight to Lisbon' });
 * console.log(turn.reply);
 */
export function createAgent(options: AgentOptions): Agent {
  const store = options.store ?? createSqliteStore();
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? randomIdGenerator;
  const limits = { ...defaultAgentLimits, ...options.limits };
  const redact = options.redact ?? { text: redactSecrets, value: redactValue };
  // Flows are checked together at start-up; whether their tools exist is the pre-hook's check 5.
  const problems = validateDomain({
    name: 'agent',
    flows: options.flows,
    ...(options.intents ? { intents: options.intents } : {}),
  });
  if (problems.length > 0)
    throw new ConfigurationError({ message: "The agent's flows are invalid.", problems });
  assertSkillLoopLimits(options.skillLoop);
  prepareFirstTurn();
  const flows = new Map<string, FlowDefinition>(options.flows.map((f) => [f.name, toFlowDefinition(f)]));
  // Plans (docs/decisions/0010-plans.md): on with `plan`, or when the domain has its own Plan flow.
  const planning =
    options.plan === undefined ? options.flows.some((f) => f.intent === 'plan') : options.plan !== false;
  const planSettings = { ...defaultPlanOptions, ...(typeof options.plan === 'object' ? options.plan : {}) };
  if (planning && !options.flows.some((f) => f.intent === 'plan'))
    flows.set(planFlow.name, toFlowDefinition(planFlow));
  const delegation =
    options.a2a && options.a2a.agents.length > 0
      ? {
          pool: createA2AClientPool(options.a2a.agents),
          store,
          clock,
          limits: { ...defaultA2ADelegationLimits, ...options.a2a.limits },
        }
      : undefined;
  const agentTools = [
    ...(options.tools ?? []),
    ...(delegation ? [createDelegateToAgentTool(delegation)] : []),
  ];
  const tools = createToolSet(agentTools);
  const planTools = planning ? createToolSet([...agentTools, updatePlanTool]) : tools;
  assertExecution(options.execution, 'agent');
  const bus = createObservationBus();
  const owner = ids('agent');
  const holdLease = createThreadLease({ store, owner, clock, ttlMs: limits.leaseTtlMs });
  const persona = options.persona ?? defaultPersona;
  const files = createFileSnapshotService(options.files);
  const toolPipeline = {
    files,
    rateLimiter: createMemoryRateLimiter({ clock }),
    resultCache: createMemorySimulationCache({ clock }),
    simulate: createModelSimulator({
      model: options.model,
      cache: createMemorySimulationCache({ clock }),
      redact: redact.text,
    }),
    ...options.toolPipeline,
  };

  async function send(sendOptions: SendOptions): Promise<TurnResult> {
    const text = prepareInput(sendOptions.text, { maxChars: limits.maxInputChars });
    assertExecution(sendOptions.execution, 'call');
    assertExecution(sendOptions.threadExecution, 'thread');
    const { threadId, requestId } = sendOptions;
    // Someone else's thread is refused before its lease is touched, so a stranger cannot make the
    // owner's turn wait; the owner is checked again under the lease.
    if (sendOptions.principal !== undefined) await loadOwnedThread(threadId, sendOptions.principal);
    return holdLease(threadId, async (lease) => {
      const leased: LeasedSend = Object.assign({}, sendOptions, { lease });
      let loaded = await loadOwnedThread(threadId, sendOptions.principal);
      const answered = requestId !== undefined ? findRequest(loaded.snapshot, requestId) : undefined;
      if (answered) return repeatedResult(threadId, answered, loaded.snapshot);
      // A turn whose process died: the same request runs it again (replayed, nothing completed runs
      // twice); another message closes it and goes on from what it saved.
      const interrupted = interruptedTurnOf(loaded.snapshot);
      if (interrupted && requestId !== undefined && interrupted.requestId === requestId)
        return runTurn(leased, loaded, { interrupted });
      if (interrupted) loaded = await closeInterruptedTurn({ store, clock, loaded, interrupted });
      return runTurn(leased, loaded, { text: redact.text(text) });
    });
  }

  async function loadOwnedThread(threadId: string, principal: string | undefined) {
    const loaded = await loadOrCreateThread(store, threadId, principal);
    // A thread belongs to the principal that started it; to anyone else it does not exist.
    if (principal !== undefined && loaded.version > 0 && loaded.snapshot.principal !== principal)
      throw new ThreadNotFoundError({ threadId });
    return loaded;
  }

  /** Not `async`: the turn's steps are awaited by a reaction, without a frame of this function kept per turn. */
  function runTurn(sendOptions: LeasedSend, loaded: LoadedThread, input: TurnInput): Promise<TurnResult> {
    const { threadId } = sendOptions;
    const turnId = 'interrupted' in input ? input.interrupted.turnId : ids('turn');
    const telemetry = createTurnTelemetry({
      ...(options.telemetry?.tracer ? { tracer: options.telemetry.tracer } : {}),
      agentName: options.telemetry?.agentName ?? 'flowstack',
      threadId,
      turnId,
      ...(sendOptions.principal !== undefined ? { principal: sendOptions.principal } : {}),
      clock,
      redact,
      publish: (progress) => bus.publish(progress),
      wantsProgress: () => bus.wantsProgress(threadId),
      recordContent: options.telemetry?.recordContent === true,
    });
    return runTurnSteps(sendOptions, loaded, turnId, telemetry, input).then(
      (result) => {
        telemetry.end({ status: result.status });
        return result;
      },
      (error: unknown) => {
        telemetry.end({ status: 'failed', error });
        throw error;
      },
    );
  }

  async function runTurnSteps(
    sendOptions: LeasedSend,
    loaded: LoadedThread,
    turnId: string,
    telemetry: TurnTelemetry,
    input: TurnInput,
  ): Promise<TurnResult> {
    const { threadId, signal, lease } = sendOptions;
    const turn: TurnState = {
      threadId,
      turnId,
      snapshot: loaded.snapshot,
      baseVersion: loaded.version,
      history: [],
      // What closing an interrupted turn reported is saved with this turn's first commit.
      observations: [...(loaded.carried ?? [])],
      replyParts: [],
      failed: false,
      suspended: false,
      clock,
      lease,
    };
    const interrupted = 'interrupted' in input ? input.interrupted : undefined;
    const text =
      'interrupted' in input ? input.interrupted.text : 'answer' in input ? input.answer : input.text;
    const recent = (await readRecentMessages(store, turn.snapshot, limits.recentMessages)).filter(
      (m) => interrupted === undefined || m.seq < interrupted.messageSeq,
    );
    recent.splice(0, recent.length - (limits.recentMessages - 1));
    const context = toPrompt([...recent, { seq: 0, role: 'user', text, turnId: turn.turnId }]);
    const history = recent.map((m) => ({ role: m.role, text: m.text }));
    // The turn is saved as started before any model or tool is called: a process that dies from here
    // on leaves a turn the next call on this thread resumes (docs/decisions/0017-replayable-turns.md).
    const inflight = startInflight(turn, text, {
      ...(sendOptions.requestId !== undefined ? { requestId: sendOptions.requestId } : {}),
      ...(interrupted ? { interrupted } : {}),
      ...('answer' in input ? { answers: input.suspensionId } : {}),
    });
    await commitTurn(turn, store, bus);
    if (inflight.attempts > limits.maxTurnAttempts) return abandonInterruptedTurn(turn, inflight);
    // What the saved part of the turn said is said again: the replay does not redo that work.
    if (interrupted?.replyParts) turn.replyParts.push(...interrupted.replyParts);
    const recorder = recordModelCalls({
      model: options.model,
      store,
      threadId,
      turnId,
      clock,
      redact,
      ...(interrupted?.modelCalls ? { counters: interrupted.modelCalls } : {}),
      fresh: interrupted === undefined,
    });
    turn.beforeCommit = () => {
      turn.snapshot.extensions = {
        ...turn.snapshot.extensions,
        turn: {
          ...inflight,
          phase: 'running',
          modelCalls: recorder.counters(),
          ...(turn.replyParts.length > 0 ? { replyParts: turn.replyParts } : {}),
        },
      };
    };
    const stream = options.stream === true;
    const common = {
      model: telemetry.wrapModel(recorder.model),
      context,
      ...(stream ? { stream } : {}),
      ...(signal ? { signal } : {}),
    };
    // Object.assign rather than a spread followed by new keys, which on Node 20 gives each turn's batch a
    // hidden class of its own and makes every pipeline stage's reads of it megamorphic.
    const batch = Object.assign({}, toolPipeline, {
      threadId,
      turnId: turn.turnId,
      clock,
      store,
      maxContextChars: limits.maxToolResultChars,
      redact,
      // Every execution is reported to the turn's telemetry by the pipeline; the tools stay the agent's own.
      observeExecution: telemetry.observeTool,
      // A turn begun here under a new id has no journal rows but its own: its calls skip the read.
      freshJournal: interrupted === undefined ? createFreshJournal(turn.turnId) : undefined,
      ...(turn.snapshot.principal !== undefined ? { principal: turn.snapshot.principal } : {}),
      ...(signal ? { signal } : {}),
    });
    const flowOptions: Omit<RunFlowsOptions, 'turn'> = Object.assign({}, common, {
      flows,
      tools,
      persona,
      batch,
      limits,
      telemetry,
      ids,
      history: [...history, { role: 'user' as const, text }],
      ...(options.preferences ? { preferences: options.preferences } : {}),
      ...(options.domain ? { domain: options.domain } : {}),
      ...(options.skillLoop ? { skillLoop: options.skillLoop } : {}),
    });
    // The rest of the turn waits on its model and tools for most of its life: in a function of its own, whose
    // suspended frame keeps only what the rest needs (this one's locals, about thirty, are left behind).
    return routeAndRunFlows(turn, inflight, sendOptions, text, history, common, flowOptions);
  }

  /** Routes the message (unless the turn is past routing), runs the flows, and finishes the turn. */
  async function routeAndRunFlows(
    turn: TurnState,
    inflight: InflightTurn,
    sendOptions: LeasedSend,
    text: string,
    history: { role: 'user' | 'assistant'; text: string }[],
    common: Pick<RunFlowsOptions, 'model' | 'context' | 'stream' | 'signal'>,
    flowOptions: Omit<RunFlowsOptions, 'turn'>,
  ): Promise<TurnResult> {
    const plan = planning ? planRuntime(turn, sendOptions, flowOptions) : undefined;
    // A turn interrupted after its first save of the run is past routing, and so is an answer to a
    // suspension: it goes on with its flows. A message that answers the waiting flow's question is one too.
    const routed = inflight.phase === 'running' || answerWaitingFlow(turn, text);
    try {
      const handled =
        routed ||
        (plan ? await routePlanMessage({ ...plan, turn, text, rules: options.rules ?? [] }) : false);
      if (!handled)
        await routeTurn(
          Object.assign({}, common, {
            turn,
            text,
            flows,
            rules: options.rules ?? [],
            ids,
            maxStackDepth: limits.maxStackDepth,
            history,
            persona,
            ...(options.domain ? { domain: options.domain } : {}),
          }),
        );
      await runFlows(Object.assign({}, flowOptions, { turn, ...(plan ? { plan } : {}) }));
    } catch (error) {
      // A model that fails while routing ends the turn with an error reply; the user's message is kept.
      if (!ModelError.isInstance(error)) throw error;
      turn.failed = true;
      turn.replyParts.push({
        text: `Sorry, the language model is not answering right now (${redact.text(error.message)}). Please try again.`,
      });
      observe(turn, 'error', { phase: error.phase, message: redact.text(error.message) });
    }
    return finishTurnResult(turn, inflight);
  }

  /** Composes the reply and saves the end of the turn: the in-flight record goes, the request is logged. */
  async function finishTurnResult(turn: TurnState, inflight: InflightTurn): Promise<TurnResult> {
    const { threadId } = turn;
    const pending = turn.snapshot.pending;
    const reply = composeReply(turn.replyParts, pending?.question);
    record(turn, 'message', { role: 'assistant', text: reply.text });
    turn.snapshot.turnCount += 1;
    const status = pending
      ? 'needs-input'
      : turn.suspended
        ? 'suspended'
        : turn.failed
          ? 'failed'
          : 'completed';
    turn.beforeCommit = undefined;
    endInflight(turn, inflight, { status, reply: reply.text });
    const { observations } = await commitTurnWithResponse(turn, reply.text, status);
    const open = openSuspensions(turn.snapshot);
    const result: TurnResult = {
      threadId,
      turnId: turn.turnId,
      status,
      reply: reply.text,
      frames: reply.frames,
      stack: turn.snapshot.stack,
      observations,
    };
    if (pending) result.pending = pending;
    if (open.length > 0) result.suspensions = open.map(describeSuspension);
    // A turn that stopped (a failure, the user's stop) offers to roll back what its calls left changed.
    if (status === 'suspended' || status === 'failed') {
      const undecided = (await listFileSnapshots(files.store, threadId)).filter(
        (s) => s.status === 'failed' || s.status === 'taken',
      );
      if (undecided.length > 0) result.fileSnapshots = undecided;
    }
    return result;
  }

  /**
   * A message that answers the question of the flow on top (its run waits for people): recorded as the
   * answer, and the turn goes on with that flow instead of routing the message.
   */
  function answerWaitingFlow(turn: TurnState, text: string): boolean {
    const top = turn.snapshot.stack.at(-1);
    const run = top ? readSuspendedRun(turn.snapshot, top.id) : undefined;
    if (!run) return false;
    const answered = answerRunFromText(run, text, {
      now: clock.now(),
      ...(turn.snapshot.principal !== undefined ? { principal: turn.snapshot.principal } : {}),
    });
    if (!answered) return false;
    writeSuspendedRun(turn.snapshot, run.flowId, answered);
    observe(turn, 'intent', { source: 'hitl', decision: 'answer', flow: top?.name }, run.flowId);
    return true;
  }

  /**
   * Answers one question of a suspended run (DESIGN.md invariant 6: the answer is the call's result).
   * The answer is saved with the turn's first commit; the run goes on once every question of its step
   * is answered, and the turn's reply says what happened — or which questions are still open.
   */
  async function resume(resumeOptions: ResumeOptions): Promise<TurnResult> {
    const { threadId } = resumeOptions;
    if (resumeOptions.principal !== undefined) await loadOwnedThread(threadId, resumeOptions.principal);
    return holdLease(threadId, async (lease) => {
      let loaded = await loadOwnedThread(threadId, resumeOptions.principal);
      if (loaded.version === 0) throw new ThreadNotFoundError({ threadId });
      const interrupted = interruptedTurnOf(loaded.snapshot);
      const leased: LeasedSend = {
        threadId,
        text: '',
        lease,
        ...(resumeOptions.signal ? { signal: resumeOptions.signal } : {}),
        ...principalOf(resumeOptions),
      };
      // An answer whose turn died on the way is carried on; any other interrupted turn is closed first.
      if (interrupted?.answers !== undefined) {
        const replayed = await runTurn(leased, loaded, { interrupted });
        if (interrupted.answers === resumeOptions.suspensionId) return replayed;
        loaded = await loadOwnedThread(threadId, resumeOptions.principal);
      } else if (interrupted) loaded = await closeInterruptedTurn({ store, clock, loaded, interrupted });
      const question = recordAnswer(loaded.snapshot, {
        suspensionId: resumeOptions.suspensionId,
        answer: resumeOptions.feedback,
        now: clock.now(),
        tools: planTools,
        ...principalOf(resumeOptions),
      });
      return runTurn(leased, loaded, {
        answer: redact.text(describeAnswer(question)),
        suspensionId: question.id,
      });
    });
  }

  /** What the plan loop needs for this turn; thread execution settings are saved with the thread. */
  function planRuntime(
    turn: TurnState,
    sendOptions: SendOptions,
    flowOptions: Omit<RunFlowsOptions, 'turn'>,
  ): PlanRuntime {
    const saved = turn.snapshot.extensions.execution as Partial<ExecutionConfig> | undefined;
    const thread = { ...saved, ...sendOptions.threadExecution };
    if (sendOptions.threadExecution)
      turn.snapshot.extensions = { ...turn.snapshot.extensions, execution: thread };
    const execution = resolveExecutionConfig({
      agent: options.execution,
      thread,
      call: sendOptions.execution,
    });
    return {
      ...flowOptions,
      tools: planTools,
      ids,
      settings: planSettings,
      execution,
      store,
      save: async () => {
        await commitTurn(turn, store, bus);
        // A long plan keeps its lease; one that lost it stops rather than race another worker.
        const renewed = await store.acquireLease({
          threadId: turn.threadId,
          owner,
          ttlMs: limits.leaseTtlMs,
          now: clock.now(),
        });
        if (!renewed) throw new ThreadBusyError({ threadId: turn.threadId });
      },
      ...(delegation ? { delegation } : {}),
    };
  }

  function commitTurnWithResponse(turn: TurnState, reply: string, status: string) {
    turn.observations.push({
      specVersion: 1,
      threadId: turn.threadId,
      turnId: turn.turnId,
      type: 'final-response',
      time: clock.now(),
      data: { text: reply, status },
    });
    return commitTurn(turn, store, bus);
  }

  /** Ends a turn that kept dying: it is not tried again, and what it may have done is said. */
  async function abandonInterruptedTurn(turn: TurnState, inflight: InflightTurn): Promise<TurnResult> {
    const unknown = await unfinishedCalls(store, turn.threadId, turn.turnId);
    turn.failed = true;
    const calls = unknown.map((e) => `${e.toolName} (${e.callId})`).join(', ');
    turn.replyParts.push({
      text:
        `This request was interrupted ${inflight.attempts - 1} times and was stopped.` +
        (calls ? ` These calls started and may or may not have taken effect: ${calls}.` : ''),
    });
    observe(turn, 'error', {
      phase: 'resume',
      message: `The turn was interrupted ${inflight.attempts - 1} times.`,
      unknownOutcomes: unknown.map((e) => ({ callId: e.callId, toolName: e.toolName, key: e.key })),
    });
    return finishTurnResult(turn, inflight);
  }

  async function readThread(threadId: string): Promise<ThreadView> {
    const loaded = await loadThread(store, threadId);
    if (!loaded) throw new ThreadNotFoundError({ threadId });
    const messages: ConversationMessage[] = await readRecentMessages(
      store,
      loaded.snapshot,
      Number.MAX_SAFE_INTEGER,
    );
    return {
      threadId,
      version: loaded.version,
      snapshot: loaded.snapshot,
      messages,
      suspensions: listSuspensions(loaded.snapshot).map(describeSuspension),
      fileSnapshots: await listFileSnapshots(files.store, threadId),
    };
  }

  /**
   * Restores one file snapshot of the thread, holding its lease so no turn changes files meanwhile, and
   * saves a `file-rollback` observation with the report (saved, then published).
   */
  async function rollback(rollbackOptions: RollbackOptions): Promise<RollbackReport> {
    const { threadId } = rollbackOptions;
    return holdLease(threadId, async (lease) => {
      const loaded = await loadOwnedThread(threadId, rollbackOptions.principal);
      if (loaded.version === 0) throw new ThreadNotFoundError({ threadId });
      const report = await rollbackFiles(files, { ...rollbackOptions, now: () => clock.now() });
      const turn: TurnState = {
        threadId,
        turnId: ids('turn'),
        snapshot: loaded.snapshot,
        baseVersion: loaded.version,
        history: [],
        observations: [],
        replyParts: [],
        failed: false,
        suspended: false,
        clock,
        lease,
      };
      observe(turn, 'file-rollback', {
        ...report,
        ...(rollbackOptions.principal !== undefined ? { by: rollbackOptions.principal } : {}),
      });
      await commitTurn(turn, store, bus);
      return report;
    });
  }

  return {
    send,
    resume,
    readThread,
    rollback,
    subscribe: (listener, subscribeOptions) => bus.subscribe(listener, subscribeOptions),
    store,
    warmUp: () => warmUpProcess(createAgent),
    sweepFileSnapshots: () =>
      files.keep
        ? sweepFileSnapshots({ store: files.store, keep: files.keep, now: clock.now() })
        : Promise.resolve({ threads: 0, removed: 0, failed: [] }),
    close: () => store.close(),
  };
}

function assertExecution(config: Partial<ExecutionConfig> | undefined, layer: string): void {
  const problems = config ? checkExecutionConfig(config) : [];
  if (problems.length > 0)
    throw new ConfigurationError({ message: `The ${layer} execution settings are invalid.`, problems });
}

/** What a turn runs on: a user's message, an answer to a suspension, or a turn whose process died. */
type TurnInput = { text: string } | { answer: string; suspensionId: string } | { interrupted: InflightTurn };

/** Every override names a bound of the skill loop and is a number ≥ 0 (DESIGN.md invariant 9). */
function assertSkillLoopLimits(overrides: Partial<SkillLoopLimits> | undefined): void {
  if (overrides === undefined) return;
  const known = defaultSkillLoopLimits.simple;
  const problems = Object.entries(overrides).flatMap(([key, value]) =>
    !Object.hasOwn(known, key)
      ? [`skillLoop.${key} is not a bound of the skill loop`]
      : typeof value !== 'number' || !Number.isFinite(value) || value < 0
        ? [`skillLoop.${key} must be a number ≥ 0 (got ${String(value)})`]
        : [],
  );
  if (problems.length > 0)
    throw new ConfigurationError({ message: 'The skill loop limits are invalid.', problems });
}

function principalOf(options: { principal?: string }): { principal?: string } {
  return options.principal !== undefined ? { principal: options.principal } : {};
}

function toPrompt(messages: readonly ConversationMessage[]): LanguageModelV3Prompt {
  return messages.map((m) =>
    m.role === 'user'
      ? { role: 'user' as const, content: [{ type: 'text' as const, text: m.text }] }
      : { role: 'assistant' as const, content: [{ type: 'text' as const, text: m.text }] },
  );
}
