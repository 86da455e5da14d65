/**
 * What a tool's `execute` receives for one attempt (`ToolExecutionContext`). It also carries what the
 * caller of the batch hands the tools of its own run (`ToolBatchContext.runScope`, read with `runScopeOf`):
 * flowstack's component tools find their flow run's workspace there, so they are defined once, not per run.
 */
import type { WorkAbort } from '../util/index.js';
import type { ToolExecutionContext } from './tool-definition.js';

export class ToolCallContext implements ToolExecutionContext {
  readonly idempotencyKey: string;
  readonly threadId: string;
  readonly callId: string;
  readonly attempt: number;
  readonly #abort: WorkAbort;
  readonly #runScope: object | undefined;

  constructor(fields: Omit<ToolExecutionContext, 'signal'>, abort: WorkAbort, runScope: object | undefined) {
    this.idempotencyKey = fields.idempotencyKey;
    this.threadId = fields.threadId;
    this.callId = fields.callId;
    this.attempt = fields.attempt;
    this.#abort = abort;
    this.#runScope = runScope;
  }

  /** Made when the tool first reads it (most tools never do), aborted if the call already timed out. */
  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  /** See `runScopeOf`. */
  static runScopeOf(context: ToolExecutionContext): object | undefined {
    return #runScope in context ? context.#runScope : undefined;
  }
}

/** The batch's `runScope` for the call this context belongs to (`undefined` when the batch has none). */
export function runScopeOf(context: ToolExecutionContext): object | undefined {
  return ToolCallContext.runScopeOf(context);
}
