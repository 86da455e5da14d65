/**
 * Internal flows in the background (seed 001 concurrency model): every scheduled Internal flow whose
 * dependencies have completed starts at once, concurrently with the others and with the user-facing
 * flows; a flow whose dependency failed is marked Invalid and never runs. Each runs on its own small
 * dialogue state, so it can never touch the user-facing stack; what it writes to the scratchpad is
 * applied when the turn settles, in schedule order, so the result does not depend on timing.
 */
import { blockedBackgroundFlows, createDialogueState, readyBackgroundFlows } from '../../flow/index.js';
import { writeScratchpad } from '../../memory/index.js';
import type { FlowInstance, FlowStatus, ScratchpadEntry } from '../../spec/index.js';
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

function startBackgroundRunner(options: RunFlowsOptions): BackgroundRunner {
  const { turn } = options;
  const snapshot = turn.snapshot;
  const running = new Map<string, Promise<void>>();
  const results = new Map<
    string,
    { execution?: FlowExecution; start: readonly ScratchpadEntry[]; error?: string }
  >();
  let started = 0;

  const setStatus = (flowId: string, status: FlowStatus) => {
    snapshot.background = (snapshot.background ?? []).map((f) => (f.id === flowId ? { ...f, status } : f));
  };

  function start(): void {
    const background = snapshot.background ?? [];
    for (const flow of blockedBackgroundFlows(background)) {
      setStatus(flow.id, 'invalid');
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
      if (running.has(flow.id) || started >= options.limits.maxBackgroundFlows) continue;
      started += 1;
      setStatus(flow.id, 'active');
      observe(
        turn,
        'flow-push',
        { flow: flow.name, flowId: flow.id, slots: flow.slots, background: true },
        flow.id,
      );
      running.set(flow.id, run({ ...flow, status: 'active' }));
    }
  }

  async function run(flow: FlowInstance): Promise<void> {
    const scratchpad = [...snapshot.scratchpad];
    const state = { ...createDialogueState(), stack: [flow] };
    let status: FlowStatus = 'invalid';
    try {
      const execution = await executeFlow(executionOptions(options, { state, flow, scratchpad }));
      results.set(flow.id, { execution, start: scratchpad });
      if (execution.kind === 'completed') status = 'completed';
    } catch (error) {
      results.set(flow.id, {
        start: scratchpad,
        error: error instanceof Error ? error.message : String(error),
      });
    }
    setStatus(flow.id, status);
    observe(turn, 'flow-pop', { flow: flow.name, flowId: flow.id, status, background: true }, flow.id);
    start();
  }

  async function settle(): Promise<void> {
    for (;;) {
      const pending = [...running.values()];
      await Promise.all(pending);
      if (running.size === pending.length) break;
    }
    for (const flow of snapshot.background ?? []) {
      const result = results.get(flow.id);
      if (!result) continue;
      if (result.error !== undefined) {
        observe(turn, 'error', { phase: 'background', message: result.error }, flow.id);
        continue;
      }
      const execution = result.execution as FlowExecution;
      recordLoopEvents(turn, flow.id, execution.events);
      const before = new Map(result.start.map((e) => [e.key, e.text]));
      for (const entry of execution.scratchpad)
        if (before.get(entry.key) !== entry.text)
          snapshot.scratchpad = writeScratchpad(snapshot.scratchpad, entry, {
            maxEntries: options.limits.maxScratchpadEntries,
          });
      if (execution.kind !== 'completed')
        observe(turn, 'error', { phase: 'background', flow: flow.name, kind: execution.kind }, flow.id);
    }
    results.clear();
  }

  return { start, settle };
}
