/**
 * A tool as the runtime holds it: the data-only spec plus the function that does the work.
 */
import type { ToolSpec } from '../spec/index.js';

/** What a tool's `execute` receives besides its validated input. */
export interface ToolExecutionContext {
  /** Stable across retries, resumes and approvals: thread id + call id (DESIGN.md invariant 5). */
  idempotencyKey: string;
  threadId: string;
  callId: string;
  /** Aborted when the call times out or the turn is cancelled; the tool should stop its work. */
  signal: AbortSignal;
}

export interface ToolDefinition<Input = unknown, Output = unknown> extends ToolSpec {
  execute(input: Input, context: ToolExecutionContext): Promise<Output> | Output;
  /**
   * Decides what happened to a non-idempotent call whose start was journaled but whose result was not
   * (a crash in between). Returns the result if the effect happened, `undefined` if it did not.
   */
  reconcile?(idempotencyKey: string): Promise<{ happened: true; output: Output } | { happened: false }>;
}

/** Tools available to one run, by name. A `Map` so that names like `__proto__` are plain keys. */
export type ToolSet = ReadonlyMap<string, ToolDefinition>;

/** Builds a `ToolSet` from a list, refusing duplicate names. */
export function createToolSet(tools: readonly ToolDefinition[]): ToolSet {
  const set = new Map<string, ToolDefinition>();
  for (const tool of tools) {
    if (set.has(tool.name)) throw new Error(`Two tools are named '${tool.name}'.`);
    set.set(tool.name, tool);
  }
  return set;
}
