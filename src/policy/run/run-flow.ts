/**
 * The `run-flow` effect of a turn (DESIGN.md §1): the active flow runs once through its policy (PEX
 * `executeFlow`), going on from its checkpoint when its run waited for people, and what it returns is
 * applied to the turn — a reply, a question, a suspension, recovery (retry · gather context · contemplate
 * · escalate) or a hard-coded fallback.
 */
import { type FlowDefinition, isOpen, toBackgroundFlows, transitionDialogue } from '../../flow/index.js';
import { archiveSuspensions, readSuspendedRun, writeSuspendedRun } from '../../hitl/index.js';
import {
  continueSuspendedRun,
  describeSuspension,
  describeWaiting,
  suspendRun,
} from '../../hitl/resume/index.js';
import type { FlowInstance, SuspendedRun } from '../../spec/index.js';
import {
  commitDialogue,
  dialogueOf,
  executionOptions,
  noteDialogue,
  observe,
  record,
  recordLoopEvents,
  type TurnState,
  update,
} from '../../turn/index.js';
import { executeFlow, type FlowExecution } from '../index.js';
import type { LoopContext } from './flow-loop-context.js';
import { fallBack, recoverFlow } from './recover-flow.js';

/** Runs one flow; returns true when the turn must stop (a question, a suspension). */
export async function runActiveFlow(loop: LoopContext, flow: FlowInstance): Promise<boolean> {
  const { turn, options } = loop;
  const snapshot = turn.snapshot;
  const guidance = loop.guidance?.get(flow.id);
  // A run that waited for people goes on from its checkpoint once every question is answered.
  const waiting = readSuspendedRun(snapshot, flow.id);
  let resumed: Awaited<ReturnType<typeof continueSuspendedRun>> | undefined;
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
  // Not awaited in this frame: while the flow runs, a reaction waits with the four values applying needs.
  return executeFlow({
    ...executionOptions(options, {
      state: dialogueOf(snapshot),
      flow,
      scratchpad: snapshot.scratchpad,
      ...(guidance ? { guidance } : {}),
    }),
    ...(carried ? { resume: carried.resume, batch: { ...options.batch, ...carried.batch } } : {}),
  }).then((execution) => {
    span?.end({ status: execution.kind });
    return applyExecution(loop, flow, carried, execution);
  });
}

/** Applies what the flow's execution returned; true when the turn must stop (a question, a suspension). */
function applyExecution(
  loop: LoopContext,
  flow: FlowInstance,
  carried: Extract<Awaited<ReturnType<typeof continueSuspendedRun>>, { kind: 'resume' }> | undefined,
  execution: FlowExecution,
): boolean | Promise<boolean> {
  const { turn, options } = loop;
  const snapshot = turn.snapshot;
  recordLoopEvents(turn, flow.id, execution.events);
  snapshot.scratchpad = execution.scratchpad;
  commitDialogue(turn, execution.state);
  if (execution.filled.length > 0)
    observe(turn, 'intent', { source: 'fill-slots', flow: flow.name, filled: execution.filled }, flow.id);
  const definition = options.flows.get(flow.name) as FlowDefinition;
  switch (execution.kind) {
    case 'blocked':
      update(turn, { type: 'invalidate', flowId: flow.id });
      update(turn, { type: 'set-flags', flags: { hasIssues: true } });
      turn.failed = true;
      turn.replyParts.push({
        text: `I cannot run "${flow.name}": ${execution.problems.map((p) => p.message).join(' ')}`,
      });
      observe(turn, 'error', { phase: 'check', checks: execution.problems }, flow.id);
      return false;
    case 'ask':
      snapshot.pending = execution.question;
      observe(
        turn,
        'clarification',
        {
          kind: execution.question.kind,
          slot: execution.question.slot,
          question: execution.question.question,
          level: execution.question.level,
          ...(execution.gated.length > 0 ? { gated: execution.gated } : {}),
        },
        flow.id,
      );
      return true;
    case 'completed':
      return completeFlow(loop, flow, definition, execution);
    case 'failed':
      turn.failed = true;
      turn.replyParts.push({
        text: execution.text ?? '',
        ...(execution.frame ? { frame: execution.frame.frame } : {}),
        silent: definition.intent === 'internal',
      });
      recordFrame(turn, execution);
      observe(
        turn,
        'error',
        { phase: 'skill', category: execution.outcome.errorCategory, message: execution.outcome.message },
        flow.id,
      );
      return false;
    case 'uncertain':
      return recoverFlow(loop, flow, definition, { kind: 'uncertain', reason: execution.outcome.reason });
    case 'suspended': {
      const run = suspendRun({
        flowId: flow.id,
        runTurnId: carried?.batch.turnId ?? turn.turnId,
        outcome: execution.outcome,
        events: execution.events,
        ...(execution.checkpoint ? { checkpoint: execution.checkpoint } : {}),
        ids: options.ids ?? ((prefix) => `${prefix}_${turn.turnId}_${turn.observations.length}`),
        now: turn.clock.now(),
        redact: options.batch.redact,
        ...(options.limits.approvalTtlMs !== undefined
          ? { approvalTtlMs: options.limits.approvalTtlMs }
          : {}),
        ...(carried ? { answered: carried.answered } : {}),
      });
      writeSuspendedRun(snapshot, flow.id, run);
      observe(
        turn,
        'suspended',
        { ...execution.outcome, suspensions: run.suspensions.map(describeSuspension) },
        flow.id,
      );
      return keepWaiting(turn, run);
    }
    case 'fallback':
      observe(
        turn,
        'recovery',
        {
          action: 'hard-coded-fallback',
          flow: flow.name,
          to: execution.target.flow,
          reason: execution.target.reason,
        },
        flow.id,
      );
      return fallBack(
        loop,
        flow,
        execution.target.flow,
        execution.target.slots ?? {},
        execution.target.reason,
      );
  }
}

function completeFlow(
  loop: LoopContext,
  flow: FlowInstance,
  definition: FlowDefinition,
  execution: Extract<FlowExecution, { kind: 'completed' }>,
): boolean | Promise<boolean> {
  const { turn } = loop;
  if (execution.verify.length > 0) {
    observe(turn, 'error', { phase: 'verify', problems: execution.verify }, flow.id);
    update(turn, { type: 'set-flags', flags: { hasIssues: true } });
    const before = turn.dialogueStart?.stack.find((f) => f.id === flow.id) ?? flow;
    for (const problem of execution.verify) repair(turn, flow, before, problem.check);
    if (execution.verify.some((p) => p.check === 'output-well-formed')) {
      turn.snapshot.stack = turn.snapshot.stack.map((f) =>
        f.id === flow.id ? withoutResult({ ...f, status: 'active' }) : f,
      );
      noteDialogue(turn);
      return recoverFlow(loop, flow, definition, {
        kind: 'verify',
        problems: execution.verify.map((p) => p.message),
      });
    }
  }
  const silent =
    definition.intent === 'internal' || (definition.intent === 'plan' && turn.snapshot.flags.keepGoing);
  turn.replyParts.push({
    text: execution.text ?? '',
    ...(execution.frame ? { frame: execution.frame.frame } : {}),
    silent,
  });
  recordFrame(turn, execution);
  if (execution.schedule.length > 0) {
    const scheduled = toBackgroundFlows(
      execution.schedule.filter((r) => loop.options.flows.get(r.flow)?.intent === 'internal'),
      {
        ids:
          loop.options.ids ??
          ((prefix) => `${prefix}_${turn.turnId}_${(turn.snapshot.background ?? []).length + 1}`),
        existing: turn.snapshot.background ?? [],
      },
    );
    turn.snapshot.background = transitionDialogue(dialogueOf(turn.snapshot), {
      type: 'schedule',
      flows: scheduled,
    }).background;
    noteDialogue(turn);
  }
  return false;
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

function recordFrame(
  turn: TurnState,
  execution: { frame?: { frame: { tableId?: string; flow: string }; allRows?: unknown[] } },
): void {
  const created = execution.frame;
  if (!created) return;
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
