/**
 * The `run-flow` effect of a turn (DESIGN.md §1): the active flow runs once through its policy (PEX
 * `executeFlow`), going on from its checkpoint when its run waited for people, and what it returns is
 * applied to the turn — a reply, a question, a suspension, recovery (retry · gather context · contemplate
 * · escalate) or a hard-coded fallback.
 */
import { type FlowDefinition, isOpen } from '../../flow/index.js';
import { archiveSuspensions, readSuspendedRun, writeSuspendedRun } from '../../hitl/index.js';
import {
  type ContinuedRun,
  continueSuspendedRun,
  describeWaiting,
  suspendFlowRun,
} from '../../hitl/resume/index.js';
import type { CreatedFrame } from '../../respond/index.js';
import type { FlowInstance, SuspendedRun } from '../../spec/index.js';
import {
  commitDialogue,
  dialogueOf,
  executionOptions,
  noteDialogue,
  observe,
  record,
  recordLoopEvents,
  scheduleBackgroundFlows,
  type TurnState,
  update,
} from '../../turn/index.js';
import type { IdGenerator } from '../../util/index.js';
import { applyExecution, executeFlow, type FlowExecution } from '../index.js';
import type { LoopContext } from './flow-loop-context.js';
import { fallBack, recoverFlow } from './recover-flow.js';

/** Runs one flow; returns true when the turn must stop (a question, a suspension). */
export async function runActiveFlow(loop: LoopContext, flow: FlowInstance): Promise<boolean> {
  const { turn, options } = loop;
  const snapshot = turn.snapshot;
  const guidance = loop.guidance?.get(flow.id);
  // A run that waited for people goes on from its checkpoint once every question is answered.
  const waiting = readSuspendedRun(snapshot, flow.id);
  let resumed: ContinuedRun | undefined;
  if (waiting) {
    resumed = await continueSuspendedRun({
      run: waiting,
      turn,
      tools: options.tools,
      batch: options.batch,
      parentId: flow.id,
    });
    if (resumed.kind === 'waiting') return keepWaiting(turn, resumed.run);
    writeSuspendedRun(snapshot, flow.id, undefined);
    archiveSuspensions(snapshot, waiting.suspensions);
    if (resumed.kind === 'declined') {
      update(turn, { type: 'invalidate', flowId: flow.id });
      turn.replyParts.push({ text: `I stopped "${flow.name}": ${resumed.reason}` });
      return false;
    }
  }
  const carried = resumed?.kind === 'resume' ? resumed : undefined;
  const span = options.telemetry?.startFlow(flow);
  const execution = await executeFlow({
    ...executionOptions(options, {
      state: dialogueOf(snapshot),
      flow,
      scratchpad: snapshot.scratchpad,
      ...(guidance ? { guidance } : {}),
    }),
    ...(carried ? { resume: carried.resume, batch: { ...options.batch, ...carried.batch } } : {}),
  });
  span?.end({ status: execution.kind });
  return carryOut(loop, flow, carried, execution);
}

/** Carries out what the flow's outcome does (`applyExecution`); true when the turn must stop. */
async function carryOut(
  loop: LoopContext,
  flow: FlowInstance,
  carried: Extract<ContinuedRun, { kind: 'resume' }> | undefined,
  execution: FlowExecution,
): Promise<boolean> {
  const { turn, options } = loop;
  // A flow with no registered policy is refused by check 2 before anything needs its definition.
  const definition = options.flows.get(flow.name) as FlowDefinition;
  recordLoopEvents(turn, flow.id, execution.events, options.batch.redact);
  turn.snapshot.scratchpad = execution.scratchpad;
  const applied = applyExecution(execution, { place: 'flow', flow, intent: definition?.intent });
  commitDialogue(turn, applied.state);
  const before = turn.dialogueStart?.stack.find((f) => f.id === flow.id) ?? flow;
  for (const effect of applied.effects) {
    switch (effect.type) {
      case 'observe':
        observe(turn, effect.event, effect.data, flow.id);
        break;
      case 'fail-turn':
        turn.failed = true;
        break;
      case 'reply':
        turn.replyParts.push({
          text: effect.text,
          ...(effect.frame ? { frame: effect.frame.frame } : {}),
          silent: effect.silent,
        });
        if (effect.frame) recordFrame(turn, effect.frame);
        break;
      case 'ask':
        turn.snapshot.pending = effect.question;
        return true;
      case 'schedule':
        scheduleBackgroundFlows(turn, effect.requests, { flows: options.flows, ids: idsOf(loop) });
        break;
      case 'repair':
        repair(turn, flow, before, effect.check);
        break;
      case 'reopen':
        turn.snapshot.stack = turn.snapshot.stack.map((f) =>
          f.id === flow.id ? withoutResult({ ...f, status: 'active' }) : f,
        );
        noteDialogue(turn);
        break;
      case 'recover':
        return recoverFlow(loop, flow, definition, effect.reason);
      case 'suspend': {
        const run = suspendFlowRun(turn, {
          flowId: flow.id,
          runTurnId: carried?.batch.turnId ?? turn.turnId,
          outcome: effect.outcome,
          events: execution.events,
          ...(execution.checkpoint ? { checkpoint: execution.checkpoint } : {}),
          ids: idsOf(loop),
          redact: options.batch.redact,
          ...(options.batch.sealer ? { sealer: options.batch.sealer } : {}),
          ...(options.limits.approvalTtlMs !== undefined
            ? { approvalTtlMs: options.limits.approvalTtlMs }
            : {}),
          ...(carried ? { answered: carried.answered } : {}),
          tools: options.tools,
        });
        return keepWaiting(turn, run);
      }
      case 'fall-back':
        return fallBack(loop, flow, effect.target.flow, effect.target.slots ?? {}, effect.target.reason);
      case 'settle':
        // Only plan items settle; a user-facing flow is never given this effect.
        break;
    }
  }
  return false;
}

/** The agent's id generator, or ids made from the turn for a loop run without one. */
function idsOf(loop: LoopContext): IdGenerator {
  const { turn } = loop;
  return loop.options.ids ?? ((prefix) => `${prefix}_${turn.turnId}_${turn.observations.length}`);
}

/** Puts right what `verify()` found, so a broken hook never leaves a broken thread. */
function repair(turn: TurnState, flow: FlowInstance, before: FlowInstance, check: string): void {
  const snapshot = turn.snapshot;
  if (check === 'slots-intact') {
    snapshot.stack = snapshot.stack.map((f) =>
      f.id === flow.id ? { ...f, slots: { ...before.slots, ...definedOnly(f.slots) } } : f,
    );
    noteDialogue(turn);
  } else if (check === 'no-duplicates') {
    const seen = new Set<string>();
    for (const f of [...snapshot.stack].reverse()) {
      if (!isOpen(f)) continue;
      const key = `${f.name}\u0000${f.planId ?? ''}`;
      if (seen.has(key)) update(turn, { type: 'invalidate', flowId: f.id });
      seen.add(key);
    }
  } else if (check === 'dialogue-state') {
    // Sub-flows whose plan is gone or Invalid can never finish: they go too (invariant 3).
    for (const f of snapshot.stack) {
      if (f.planId === undefined || f.planId === f.id || !isOpen(f)) continue;
      const owner = snapshot.stack.find((o) => o.id === f.planId);
      if (!owner || owner.status === 'invalid') update(turn, { type: 'invalidate', flowId: f.id });
    }
  } else if (check === 'flags-coherent') {
    const others = snapshot.stack.some((f) => f.id !== flow.id && isOpen(f));
    update(turn, { type: 'set-flags', flags: { hasIssues: true, ...(others ? {} : { keepGoing: false }) } });
  }
}

/** The turn stops: the run waits for the answers still open. */
function keepWaiting(turn: TurnState, run: SuspendedRun): boolean {
  writeSuspendedRun(turn.snapshot, run.flowId, run);
  turn.suspended = true;
  turn.replyParts.push({ text: describeWaiting(run) });
  return true;
}

/** The display frame's history row, with every row of a table that a page can read later. */
function recordFrame(turn: TurnState, created: CreatedFrame): void {
  record(turn, 'frame', {
    flow: created.frame.flow,
    frame: created.frame,
    ...(created.frame.tableId ? { tableId: created.frame.tableId, rows: created.allRows } : {}),
  });
}

function withoutResult(flow: FlowInstance): FlowInstance {
  const { result: _result, ...rest } = flow;
  return rest;
}

function definedOnly(slots: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(slots).filter(([, v]) => v !== undefined && v !== null));
}
