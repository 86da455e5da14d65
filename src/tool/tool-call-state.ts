/**
 * The state of one call as it passes the stages: one object per call that stages fill in as they
 * learn (the tool, the parsed input, why approval is needed …), so that nothing is computed twice and
 * nothing is copied per stage.
 */
import type { JournalEntry, ToolCallRequest } from '../spec/index.js';
import { stableHash } from '../util/index.js';
import type { CallAssessment } from './internal/assess-call.js';
import type { ToolBatchContext } from './tool-batch-context.js';
import type { ToolDefinition } from './tool-definition.js';

export interface ToolCallState {
  request: ToolCallRequest;
  batch: ToolBatchContext;
  /** Set by the resolve stage. */
  tool?: ToolDefinition;
  /** The parsed arguments, set by the parse stage. */
  input?: unknown;
  /** The capability gate's judgement (see `assessmentOf`), computed once. */
  assessment?: CallAssessment;
  /** A started anticipatory simulation, awaited after the call. */
  simulation?: Promise<string | undefined>;
  /** The tool produced the content of the result (it ran, or its journaled result was reused). */
  toolContent: boolean;
  /** How many times the tool ran. */
  attempts: number;
  /** How long the tool's last failure asked to wait before another attempt. */
  retryAfterMs?: number;
  /**
   * The journal entry read by the replay stage (`null`: there was none), so that the journal stage
   * does not read it again.
   */
  journaled?: JournalEntry | null;
  /**
   * What a call whose outcome was unknown returned, as its tool's `reconcile` found it: the execute stage
   * answers with it instead of running the tool, so the output still passes validation and redaction.
   */
  reconciled?: { output: unknown };
  /** Caches of `idempotencyKeyOf` and `argsHashOf`. */
  key?: string;
  argsHash?: string;
}

/** A fresh state for one call. */
export function createToolCallState(request: ToolCallRequest, batch: ToolBatchContext): ToolCallState {
  // Every field is there from the start: fields added later would go to a separate property array, and the
  // states would not share one hidden class.
  return {
    request,
    batch,
    tool: undefined,
    input: undefined,
    assessment: undefined,
    simulation: undefined,
    toolContent: false,
    attempts: 0,
    retryAfterMs: undefined,
    journaled: undefined,
    reconciled: undefined,
    key: undefined,
    argsHash: undefined,
  };
}

/**
 * The call's idempotency key: stable across retries, resumes and approvals of the same call
 * (DESIGN.md invariant 5), and never shared by two calls of one thread (docs/decisions/0003).
 */
export function idempotencyKeyOf(state: ToolCallState): string {
  if (state.key === undefined)
    state.key = `${state.batch.threadId}:${state.batch.turnId}:${state.request.callId}`;
  return state.key;
}

/** The hash of the parsed arguments that journal rows and approvals bind to. */
export function argsHashOf(state: ToolCallState): string {
  if (state.argsHash === undefined) state.argsHash = stableHash(state.input ?? {});
  return state.argsHash;
}
