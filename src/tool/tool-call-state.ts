/**
 * The state of one call as it passes the stages: one object per call that stages fill in as they learn
 * (the tool, the parsed input, why approval is needed …) and as they begin work that a later stage
 * finishes (an audit row, a journal row, a file snapshot), so that nothing is computed twice.
 */
import type { FileSnapshotRecord, JournalEntry, ToolCallRequest, ToolCallResult } from '../spec/index.js';
import { stableHash } from '../util/index.js';
import type { CallAssessment } from './call-assessment.js';
import type { ToolBatchContext } from './tool-batch-context.js';
import type { ToolDefinition } from './tool-definition.js';

export interface ToolCallState {
  request: ToolCallRequest;
  batch: ToolBatchContext;
  /** Set by the resolve stage. */
  tool?: ToolDefinition;
  /** The parsed arguments, set by the parse stage: what approvals, journal rows and audits are of. */
  input?: unknown;
  /**
   * What the tool receives, set by the validate stage: the output of the tool's `parseInput` (a Zod
   * schema's transforms and defaults applied), or `input` itself when the tool has none.
   */
  toolInput?: unknown;
  /** The capability gate's judgement (see `assessmentOf`), computed once. */
  assessment?: CallAssessment;
  /**
   * The call got past every guard to the execute step: the transforms of the tool's own output (retry,
   * output validation, redaction) apply to its result.
   */
  executed: boolean;
  /** The tool produced the content of the result (it ran, or its journaled or cached result was reused). */
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

  /** The audit row written before the call, completed after it. */
  audit?: { id: number; startedAt: number };
  /** Where a success of this call is to be cached (a cache miss of a cacheable call). */
  cacheKey?: string;
  /** A started anticipatory simulation, attached after the call. */
  simulation?: Promise<string | undefined>;
  /** The journal row to finish with the call's result. */
  journalRow?: JournalRow;
  /** The snapshot of the files the call declares, taken before it ran. */
  fileSnapshot?: FileSnapshotRecord;

  /** A person approved exactly the arguments with this hash (a resumed call, see `resumeToolCall`). */
  approvedArgsHash?: string;
  /** A person said an earlier attempt whose outcome was unknown did not happen: the call runs again. */
  rerun?: boolean;
  /** A person's answer, which stands for the tool's result: journaled, never run. */
  answer?: ToolCallResult;

  /** Caches of `idempotencyKeyOf` and `argsHashOf`. */
  key?: string;
  argsHash?: string;
}

/**
 * The journal row a call began: finished with its result (`whole: undefined`), or, for an idempotent call
 * known to have no row yet, written whole once it has one (docs/decisions/0046).
 */
export interface JournalRow {
  key: string;
  whole?: { argsHash: string; startedAt: number };
}

/** A fresh state for one call. */
export function createToolCallState(request: ToolCallRequest, batch: ToolBatchContext): ToolCallState {
  return { request, batch, executed: false, toolContent: false, attempts: 0 };
}

/**
 * The call's idempotency key: stable across retries, resumes and approvals of the same call
 * (DESIGN.md invariant 5), and never shared by two calls of one thread (docs/decisions/0003).
 */
export function idempotencyKeyOf(state: ToolCallState): string {
  state.key ??= `${state.batch.threadId}:${state.batch.turnId}:${state.request.callId}`;
  return state.key;
}

/** The hash of the parsed arguments that journal rows and approvals bind to. */
export function argsHashOf(state: ToolCallState): string {
  state.argsHash ??= stableHash(state.input ?? {});
  return state.argsHash;
}
