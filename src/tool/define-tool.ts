/**
 * Defines a tool in code, with a schema of any library (Zod, a Standard Schema, the AI SDK's
 * `jsonSchema()`) or plain JSON Schema for its input and output (read by `readSchema`).
 */
import { ConfigurationError } from '../errors/index.js';
import type { BlockingToolSpec, CapabilityLevel, FileTouchSpec, RateLimitSpec } from '../spec/index.js';
import { checkToolSpec } from './internal/check-tool-spec.js';
import { readSchema, type SchemaSource } from './read-schema.js';
import { toolDefaults } from './tool-defaults.js';
import type { ToolDefinition, ToolExecutionContext } from './tool-definition.js';

export interface DefineToolOptions<Input, Output> {
  name: string;
  description: string;
  /**
   * What a person reads for the tool when a call waits for their yes, a short action: "Book a flight".
   * Without it, the first sentence of `description`. Arguments are shown by their schema `title` (Zod:
   * `.meta({ title: 'Flight' })`), else a short `description`, else their name.
   */
  title?: string;
  /** Zod, any Standard Schema that offers JSON Schema, the AI SDK's `jsonSchema(…)`, or JSON Schema. */
  input: SchemaSource<Input>;
  output?: SchemaSource<Output>;
  /** Does the work. Not needed (and never run) for a `blocking` tool. */
  execute?(input: Input, context: ToolExecutionContext): Promise<Output> | Output;
  /** Every call waits for a person, whose answer is the result (seed 002 blocking tools). */
  blocking?: BlockingToolSpec;
  id?: string;
  /** Safe to run twice with the same arguments (default false): only idempotent tools are retried. */
  idempotent?: boolean;
  timeoutMs?: number;
  capability?: CapabilityLevel;
  accessesPrivateData?: boolean;
  receivesUntrustedInput?: boolean;
  communicatesExternally?: boolean;
  requiresApproval?: boolean;
  maxRetries?: number;
  rateLimit?: RateLimitSpec;
  cacheTtlMs?: number;
  /**
   * The arguments that name the files a call changes (keys joined by dots, `*` for every element):
   * they are snapshotted before each call, and a failed call's changes can be rolled back.
   */
  touches?: FileTouchSpec;
  /**
   * May run beside the other calls of the same model step (default true). `false` for a tool that must
   * run alone — it holds a shared resource, or its effect depends on what ran before it — whether or not
   * it is idempotent (docs/decisions/0063-parallelism-is-its-own-declaration.md).
   */
  parallel?: boolean;
  reconcile?: ToolDefinition<Input, Output>['reconcile'];
}

/**
 * Builds a tool, checking every field at once: a bad name, a timeout outside 1..2^31−1 ms, a schema
 * that does not compile … all come back in one `ConfigurationError`.
 *
 * @example
 * const lookup = defineTool({
 *   name: 'find_flights',
 *   title: 'Find flights',
 *   description: 'Find flights between two airports on a date.',
 *   input: z.object({ from: z.string(), to: z.string(), date: z.string() }),
 *   idempotent: true,
 *   execute: async ({ from, to, date }) => searchFlights(from, to, date),
 * });
 */
export function defineTool<Input, Output>(
  options: DefineToolOptions<Input, Output>,
): ToolDefinition<Input, Output> {
  const idempotent = options.idempotent ?? false;
  const conversionProblems: string[] = [];
  const input = readSchema('input', options.input, conversionProblems);
  const tool: ToolDefinition<Input, Output> = {
    specVersion: 1,
    id: options.id ?? options.name,
    name: options.name,
    description: options.description,
    inputSchema: input.jsonSchema,
    idempotent,
    timeoutMs: options.timeoutMs ?? toolDefaults.timeoutMs,
    capability: options.capability ?? toolDefaults.capability,
    accessesPrivateData: options.accessesPrivateData ?? false,
    receivesUntrustedInput: options.receivesUntrustedInput ?? false,
    communicatesExternally: options.communicatesExternally ?? false,
    requiresApproval: options.requiresApproval ?? false,
    maxRetries: options.maxRetries ?? toolDefaults.maxRetries,
    parallel: options.parallel ?? true,
    execute: options.execute ?? neverRun(options.name),
  };
  if (options.title !== undefined) tool.title = options.title;
  if (input.parse) tool.parseInput = input.parse;
  if (options.blocking) tool.blocking = options.blocking;
  if (options.touches) tool.touches = options.touches;
  if (options.output !== undefined)
    tool.outputSchema = readSchema('output', options.output, conversionProblems).jsonSchema;
  if (options.rateLimit) tool.rateLimit = options.rateLimit;
  if (options.cacheTtlMs !== undefined) tool.cacheTtlMs = options.cacheTtlMs;
  if (options.reconcile) tool.reconcile = options.reconcile;
  const problems = [...conversionProblems, ...checkToolSpec(tool)];
  if (typeof options.execute !== 'function' && !options.blocking)
    problems.push('execute must be a function (only a blocking tool may leave it out)');
  if (problems.length > 0)
    throw new ConfigurationError({ message: `Tool '${String(options.name)}' is invalid.`, problems });
  return tool;
}

/** The `execute` of a blocking tool: the pipeline answers its calls with a person's answer instead. */
function neverRun(name: string) {
  return () => {
    throw new Error(`Tool '${name}' is blocking: a person's answer is its result, it never runs.`);
  };
}
