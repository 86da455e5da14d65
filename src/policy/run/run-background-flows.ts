/**
 * Internal flows in the background (seed 001 concurrency model): every scheduled Internal flow whose
 * dependencies have completed starts at once, concurrently with the others and with the user-facing
 * flows; a flow whose dependency failed is marked Invalid and never runs. Each runs on its own small
 * dialogue state, so it can never touch the user-facing stack; what it writes to the scratchpad is
 * applied when the turn settles, in schedule order, so the result does not depend on timing.
 */
import { blockedBackgroundFlows, createDialogueState, readyBackgroundFlows } from '../../flow/index.js';
import { writeScratchpad } from '../../memory/index.js';
import type { FlowInstance, FlowStatus, ScratchpadEntry, ThreadSnapshot } from '../../spec/index.js';
import { executionOptions, observe, type RunFlowsOptions, recordLoopEvents } from '../../turn/index.js';
import { executeFlow, type FlowExecution } from '../index.js';

export interface BackgroundRunner {
  /** Starts every ready background flow not started yet. */
  start(): void;
  /** Waits for every started flow (and those they made ready), then applies their results. */
  settle(): Promise<void>;
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
    settle: () => (runner ? runner.settle() : Promise.resolve()),
  };
}

/** What one turn's background runner keeps: the flows running, their results, how many started. */
interface BackgroundRun {
  options: RunFlowsOptions;
  /** The turn's thread snapshot, as the runner found it. */
  snapshot: ThreadSnapshot;
  running: Map<string, Promise<void>>;
  results: Map<string, BackgroundResult>;
  started: number;
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
    snapshot: options.turn.snapshot,
    running: new Map(),
    results: new Map(),
    started: 0,
  };
  return {
    start: () => startReadyFlows(background),
    settle: () => settleBackgroundFlows(background),
  };
}

function setStatus(snapshot: ThreadSnapshot, flowId: string, status: FlowStatus): void {
  snapshot.background = (snapshot.background ?? []).map((f) => (f.id === flowId ? { ...f, status } : f));
}

/** Marks flows whose dependency failed Invalid, and starts the ready ones up to the turn's limit. */
function startReadyFlows(background: BackgroundRun): void {
  const { options, snapshot, running } = background;
  const { turn } = options;
  for (const flow of blockedBackgroundFlows(snapshot.background ?? [])) {
    setStatus(snapshot, flow.id, 'invalid');
    observe(
      turn,
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
  for (const flow of readyBackgroundFlows(snapshot.background ?? [])) {
    if (running.has(flow.id) || background.started >= options.limits.maxBackgroundFlows) continue;
    background.started += 1;
    setStatus(snapshot, flow.id, 'active');
    observe(
      turn,
      'flow-push',
      { flow: flow.name, flowId: flow.id, slots: flow.slots, background: true },
      flow.id,
    );
    running.set(flow.id, runBackgroundFlow(background, { ...flow, status: 'active' }));
  }
}

/** Runs one background flow on a dialogue state of its own, then starts the flows it made ready. */
async function runBackgroundFlow(background: BackgroundRun, flow: FlowInstance): Promise<void> {
  const { options, snapshot, results } = background;
  const { turn } = options;
  const scratchpad = [...snapshot.scratchpad];
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
  setStatus(snapshot, flow.id, status);
  observe(turn, 'flow-pop', { flow: flow.name, flowId: flow.id, status, background: true }, flow.id);
  startReadyFlows(background);
}

/** Waits for every started flow (and those they made ready), then applies their results in schedule order. */
async function settleBackgroundFlows(background: BackgroundRun): Promise<void> {
  const { options, snapshot, running, results } = background;
  for (;;) {
    const pending = [...running.values()];
    await Promise.all(pending);
    if (running.size === pending.length) break;
  }
  for (const flow of snapshot.background ?? []) {
    const result = results.get(flow.id);
    if (result) applyBackgroundResult({ options, snapshot, flow, result });
  }
  results.clear();
}

/** Records a finished flow's events and writes what it changed in the scratchpad to the turn's. */
function applyBackgroundResult(input: {
  options: RunFlowsOptions;
  snapshot: ThreadSnapshot;
  flow: FlowInstance;
  result: BackgroundResult;
}): void {
  const { options, snapshot, flow, result } = input;
  const { turn } = options;
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
