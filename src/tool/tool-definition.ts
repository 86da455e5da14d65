/**
 * A tool as the runtime holds it: the data-only spec plus the function that does the work.
 */
import { ConfigurationError } from '../errors/index.js';
import type { ToolSpec } from '../spec/index.js';

/** What a tool's `execute` receives besides its validated input. */
export interface ToolExecutionContext {
  /** Stable across retries, resumes and approvals (DESIGN.md invariant 5; docs/decisions/0003). */
  idempotencyKey: string;
  threadId: string;
  callId: string;
  /** 1 for the first run, 2 for the first retry … */
  attempt: number;
  /** Aborted when the call times out or the turn is cancelled; the tool should stop its work. */
  signal: AbortSignal;
}

/** What a tool's own input parser decided: the value the tool receives, or what is wrong. */
export type ToolInputVerdict = { valid: true; value: unknown } | { valid: false; problems: string[] };

export interface ToolDefinition<Input = unknown, Output = unknown> extends ToolSpec {
  execute(input: Input, context: ToolExecutionContext): Promise<Output> | Output;
  /**
   * The tool's own parser of arguments that passed `inputSchema` (a Zod schema's, from `defineTool`):
   * it also enforces what JSON Schema cannot say (refinements), and its output is what `execute`
   * receives (transforms and defaults applied). It answers at once unless the schema has asynchronous
   * refinements.
   */
  parseInput?(input: unknown): ToolInputVerdict | Promise<ToolInputVerdict>;
  /**
   * Decides what happened to a non-idempotent call whose start was journaled but whose result was not
   * (a crash in between). Returns the result if the effect happened, `undefined` if it did not.
   */
  reconcile?(idempotencyKey: string): Promise<{ happened: true; output: Output } | { happened: false }>;
}

/** Tools available to one run, by name. A `Map` so that names like `__proto__` are plain keys. */
export type ToolSet = ReadonlyMap<string, ToolDefinition>;

/** Builds a `ToolSet` from a list, refusing duplicate names with a `ConfigurationError`. */
export function createToolSet(tools: readonly ToolDefinition[]): ToolSet {
  const set = new Map<string, ToolDefinition>();
  const duplicates = new Set<string>();
  for (const tool of tools) {
    if (set.has(tool.name)) duplicates.add(tool.name);
    set.set(tool.name, tool);
  }
  if (duplicates.size > 0) {
    throw new ConfigurationError({
      message: 'Two tools share a name.',
      problems: [...duplicates].map((name) => `more than one tool is named '${name}'`),
    });
  }
  return set;
}
