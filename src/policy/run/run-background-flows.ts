/**
 * Internal flows in the background (seed 001 concurrency model): every scheduled Internal flow whose
 * dependencies have completed starts at once, concurrently with the others and with the user-facing
 * flows; a flow whose dependency failed is marked Invalid and never runs. Each runs on its own small
 * dialogue state, so it can never touch the user-facing stack. The runner keeps what happens (statuses,
 * observations, results) to itself and writes it into a turn when it settles, in schedule order, so the
 * result does not depend on timing — into the turn that started the flows when they are done by the
 * time it ends, else into the record the agent saves after the reply (the user does not wait for them).
 */
import {
  blockedBackgroundFlows,
  createDialogueState,
  isOpen,
  readyBackgroundFlows,
} from '../../flow/index.js';
import { writeScratchpad } from '../../memory/index.js';
import type { FlowInstance, FlowStatus, ObservationType, ScratchpadEntry } from '../../spec/index.js';
import {
  executionOptions,
  observe,
  type RunFlowsOptions,
  recordLoopEvents,
  type TurnState,
} from '../../turn/index.js';
import { executeFlow, type FlowExecution } from '../index.js';

export interface BackgroundRunner {
  /** Starts every ready background flow not started yet. */
  start(): void;
  /**
   * At the end of the turn: when flows still run, they are saved with the turn as Pending (a process that
   * dies before they land runs them again on the thread's next turn) and the returned promise resolves
   * once they are done, ready to `settle` into a later record. `undefined` when none runs.
   */
  handOver(): Promise<void> | undefined;
  /**
   * Waits for every started flow (and those they made ready), then writes their statuses, observations
   * and scratchpad results into `turn` (by default the turn that started them).
   */
  settle(turn?: TurnState): Promise<void>;
}

/** The runner of a turn's background flows, made when the first one shows up: most turns have none. */
export function createBackgroundRunner(options: RunFlowsOptions): BackgroundRunner {
  let runner: BackgroundRunner | undefined;
  return {
    start() {
      if (runner === undefined && (options.turn.snapshot.background ?? []).length === 0) return;
      runner ??= startBackgroundRunner(options);
      runner.start();
    },
    handOver: () => runner?.handOver(),
    settle: (turn) => (runner ? runner.settle(turn) : Promise.resolve()),
  };
}

/** What one turn's background runner keeps until it settles. */
interface BackgroundRun {
  options: RunFlowsOptions;
  /** The background flows as the runner sees them, with their latest status, in schedule order. */
  flows: Map<string, FlowInstance>;
  running: Map<string, Promise<void>>;
  /** Flows started and not finished yet. */
  active: number;
  results: Map<string, BackgroundResult>;
  /** Observations waiting for the turn the runner settles into. */
  log: Array<{ type: ObservationType; data: Record<string, unknown>; flowId: string; time: number }>;
  started: number;
  /** The starting turn's record was handed over for saving: statuses no longer go into its snapshot. */
  handedOver: boolean;
}

/** A finished background flow: its execution, or the error it threw, with the scratchpad it started from. */
interface BackgroundResult {
  execution?: FlowExecution;
  start: readonly ScratchpadEntry[];
  error?: string;
}

function startBackgroundRunner(options: RunFlowsOptions): BackgroundRunner {
  const background: BackgroundRun = {
    options,
    flows: new Map(),
    running: new Map(),
    active: 0,
    results: new Map(),
    log: [],
    started: 0,
    handedOver: false,
  };
  return {
    start: () => startReadyFlows(background),
    handOver: () => handOverBackgroundFlows(background),
    settle: (turn) => settleBackgroundFlows(background, turn ?? options.turn),
  };
}

/**
 * Sets a flow's status in the runner, and in the starting turn's snapshot while that turn is open (its
 * record is saved with the statuses as they stand when it ends).
 */
function setStatus(background: BackgroundRun, flowId: string, status: FlowStatus): void {
  const flow = background.flows.get(flowId);
  if (flow) background.flows.set(flowId, { ...flow, status });
  if (background.handedOver) return;
  const snapshot = background.options.turn.snapshot;
  snapshot.background = (snapshot.background ?? []).map((f) => (f.id === flowId ? { ...f, status } : f));
}

function note(
  background: BackgroundRun,
  type: ObservationType,
  data: Record<string, unknown>,
  flowId: string,
) {
  background.log.push({ type, data, flowId, time: background.options.turn.clock.now() });
}

/** Marks flows whose dependency failed Invalid, and starts the ready ones up to the turn's limit. */
function startReadyFlows(background: BackgroundRun): void {
  const { options, flows, running } = background;
  // Flows the turn scheduled since the last start join the runner's list.
  for (const flow of options.turn.snapshot.background ?? [])
    if (!flows.has(flow.id)) flows.set(flow.id, flow);
  for (const flow of blockedBackgroundFlows([...flows.values()])) {
    setStatus(background, flow.id, 'invalid');
    note(
      background,
      'flow-pop',
      {
        flow: flow.name,
        flowId: flow.id,
        status: 'invalid',
        background: true,
        reason: 'a dependency failed',
      },
      flow.id,
    );
  }
  for (const flow of readyBackgroundFlows([...flows.values()])) {
    if (running.has(flow.id) || background.started >= options.limits.maxBackgroundFlows) continue;
    background.started += 1;
    background.active += 1;
    setStatus(background, flow.id, 'active');
    note(
      background,
      'flow-push',
      { flow: flow.name, flowId: flow.id, slots: flow.slots, background: true },
      flow.id,
    );
    running.set(flow.id, runBackgroundFlow(background, { ...flow, status: 'active' }));
  }
}

/** Runs one background flow on a dialogue state of its own, then starts the flows it made ready. */
async function runBackgroundFlow(background: BackgroundRun, flow: FlowInstance): Promise<void> {
  const { options, results } = background;
  const scratchpad = [...options.turn.snapshot.scratchpad];
  const state = { ...createDialogueState(), stack: [flow] };
  let status: FlowStatus = 'invalid';
  try {
    // What a background flow's model writes is not the reply the user waits for: it is not streamed live,
    // and a stop the user says to the running turn is not said to it.
    const {
      onEvent: _live,
      stopRequested: _stop,
      ...execute
    } = executionOptions(options, { state, flow, scratchpad });
    const execution = await executeFlow(execute);
    results.set(flow.id, { execution, start: scratchpad });
    if (execution.kind === 'completed') status = 'completed';
  } catch (error) {
    results.set(flow.id, {
      start: scratchpad,
      error: error instanceof Error ? error.message : String(error),
    });
  }
  setStatus(background, flow.id, status);
  note(background, 'flow-pop', { flow: flow.name, flowId: flow.id, status, background: true }, flow.id);
  startReadyFlows(background);
  background.active -= 1;
}

function handOverBackgroundFlows(background: BackgroundRun): Promise<void> | undefined {
  if (background.active === 0) return undefined;
  background.handedOver = true;
  const snapshot = background.options.turn.snapshot;
  snapshot.background = (snapshot.background ?? []).map((f) =>
    f.status === 'active' ? { ...f, status: 'pending' } : f,
  );
  return waitForBackgroundFlows(background);
}

/** Resolves when every started flow, and every flow they made ready, has finished. */
async function waitForBackgroundFlows(background: BackgroundRun): Promise<void> {
  const { running } = background;
  for (;;) {
    const pending = [...running.values()];
    await Promise.all(pending);
    if (running.size === pending.length) break;
  }
}

/** Waits for every started flow (and those they made ready), then writes what happened into `turn`. */
async function settleBackgroundFlows(background: BackgroundRun, turn: TurnState): Promise<void> {
  const { flows, results } = background;
  await waitForBackgroundFlows(background);
  const snapshot = turn.snapshot;
  snapshot.background = (snapshot.background ?? []).map((f) => {
    const status = flows.get(f.id)?.status;
    return status && status !== f.status ? { ...f, status } : f;
  });
  for (const entry of background.log.splice(0))
    observe(turn, entry.type, entry.data, entry.flowId, entry.time);
  for (const flow of flows.values()) {
    const result = results.get(flow.id);
    if (result) applyBackgroundResult({ options: background.options, turn, flow, result });
  }
  results.clear();
  // A turn that settles after the reply was saved has no dialogue to close: finished flows leave here.
  if (turn !== background.options.turn) snapshot.background = snapshot.background.filter(isOpen);
}

/** Records a finished flow's events and writes what it changed in the scratchpad to the turn's. */
function applyBackgroundResult(input: {
  options: RunFlowsOptions;
  turn: TurnState;
  flow: FlowInstance;
  result: BackgroundResult;
}): void {
  const { options, turn, flow, result } = input;
  const snapshot = turn.snapshot;
  if (result.error !== undefined) {
    observe(turn, 'error', { phase: 'background', message: result.error }, flow.id);
    return;
  }
  const execution = result.execution as FlowExecution;
  recordLoopEvents(turn, flow.id, execution.events, options.batch.redact);
  const before = new Map(result.start.map((e) => [e.key, e.text]));
  for (const entry of execution.scratchpad)
    if (before.get(entry.key) !== entry.text)
      snapshot.scratchpad = writeScratchpad(snapshot.scratchpad, entry, {
        maxEntries: options.limits.maxScratchpadEntries,
      });
  if (execution.kind !== 'completed')
    observe(turn, 'error', { phase: 'background', flow: flow.name, kind: execution.kind }, flow.id);
}
