/**
 * A call that waited for a person, settled by their answer (seed 002 HITL, DESIGN.md invariants 5–7). It
 * passes the same stages as every other call, and so the same journal stage:
 * - `approved`: the call runs through the whole pipeline, approved for exactly the arguments the person
 *   approved (edited arguments as edited), under its own idempotency key;
 * - `rerun`: the person said an earlier attempt whose outcome was unknown did not happen, so the call runs
 *   once more under the same key instead of being reported as unknown again;
 * - `answered`: the person's answer (or what they decided) is the call's result. It is never run: the
 *   journal stage finishes the call's row with the answer, whatever the row held before.
 */
import type { ToolCallResult } from '../spec/index.js';
import { stableHash } from '../util/index.js';
import { markTaint } from './internal/mark-taint.js';
import { finishJournal, startJournal } from './stages/journal-call.js';
import type { ToolBatchContext } from './tool-batch-context.js';
import { createToolCallState, idempotencyKeyOf, type ToolCallState } from './tool-call-state.js';
import { runPipeline } from './tool-pipeline.js';

/** A call held for a person, as its suspension recorded it. */
export interface HeldToolCall {
  callId: string;
  toolName: string;
  /** The key the call was held under; the answer binds to it. */
  idempotencyKey?: string | undefined;
  /** The hash of the arguments the person was shown. */
  argsHash?: string | undefined;
}

/** What a person's answer does with a held call. */
export type ToolCallResumption =
  | { kind: 'approved'; input: unknown }
  | { kind: 'rerun'; input: unknown }
  | { kind: 'answered'; result: ToolCallResult };

/**
 * Settles a held call with a person's answer and returns its result. `context` is the batch of the run
 * the call belongs to (its turn id, so that the call keeps its idempotency key). An approved or re-run
 * call always answers, as any call of a batch does; an answer that cannot be journaled rejects, so that
 * the resume can be tried again rather than lose what the person said.
 *
 * @example
 * const result = await resumeToolCall(
 *   { callId: 'c1', toolName: 'send_email', idempotencyKey: 't1:turn1:c1', argsHash },
 *   { kind: 'approved', input: { to: 'ada@example.com' } },
 *   { ...batch, turnId: run.runTurnId, tools },
 * );
 */
export async function resumeToolCall(
  held: HeldToolCall,
  resumption: ToolCallResumption,
  context: ToolBatchContext,
): Promise<ToolCallResult> {
  if (resumption.kind === 'answered') return journalAnswer(held, resumption.result, context);
  const state = createToolCallState(
    { callId: held.callId, toolName: held.toolName, input: JSON.stringify(resumption.input ?? {}) },
    context,
  );
  // The answer binds to the call the person was asked about, never to another one under another key.
  if (held.idempotencyKey !== undefined && held.idempotencyKey === idempotencyKeyOf(state)) {
    if (resumption.kind === 'approved') state.approvedArgsHash = stableHash(resumption.input);
    else state.rerun = true;
  }
  const result = await runPipeline(state);
  markTaint([state], [result], context);
  return result;
}

async function journalAnswer(
  held: HeldToolCall,
  answer: ToolCallResult,
  context: ToolBatchContext,
): Promise<ToolCallResult> {
  if (held.idempotencyKey === undefined) return answer;
  const state: ToolCallState = createToolCallState(
    { callId: held.callId, toolName: held.toolName, input: '' },
    context,
  );
  state.tool = context.tools.get(held.toolName);
  state.key = held.idempotencyKey;
  state.argsHash = held.argsHash ?? '';
  state.answer = answer;
  // The journal stage, with the answer where the tool's result would be (the guard never answers it).
  await startJournal(state);
  return finishJournal(state, answer);
}
