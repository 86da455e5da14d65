/**
 * Defines a tool in code, with Zod or JSON Schema for its input and output.
 */
import { z } from 'zod';
import { ConfigurationError } from '../errors/index.js';
import type { CapabilityLevel, JsonSchema, RateLimitSpec } from '../spec/index.js';
import { compileSchema } from './compile-schema.js';
import type { ToolDefinition, ToolExecutionContext } from './tool-definition.js';

type SchemaInput<T> = z.ZodType<T> | JsonSchema;

export interface DefineToolOptions<Input, Output> {
  name: string;
  description: string;
  input: SchemaInput<Input>;
  output?: SchemaInput<Output>;
  execute(input: Input, context: ToolExecutionContext): Promise<Output> | Output;
  id?: string;
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
  reconcile?: ToolDefinition<Input, Output>['reconcile'];
}

/** Defaults for fields a definition leaves out (DESIGN.md §5). */
export const toolDefaults = { timeoutMs: 30_000, maxRetries: 2, capability: 'safe' as CapabilityLevel };

const maxTimeoutMs = 2 ** 31 - 1;

/**
 * @example
 * const lookup = defineTool({
 *   name: 'find_flights',
 *   description: 'Find flights between two airports on a date.',
 *   input: z.object({ from: z.string(), to: z.string(), date: z.string() }),
 *   idempotent: true,
 *   execute: async ({ from, to, date }) => searchFlights(from, to, date),
 * });
 */
export function defineTool<Input, Output>(
  options: DefineToolOptions<Input, Output>,
): ToolDefinition<Input, Output> {
  const inputSchema = toJsonSchema(options.input);
  const outputSchema = options.output === undefined ? undefined : toJsonSchema(options.output);
  const timeoutMs = options.timeoutMs ?? toolDefaults.timeoutMs;
  const problems: string[] = [];
  if (!/^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/.test(options.name))
    problems.push(`name '${options.name}' must be 1-64 letters, digits, _ or -`);
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0 || timeoutMs > maxTimeoutMs)
    problems.push(`timeoutMs must be an integer in 1..${maxTimeoutMs}`);
  for (const [label, schema] of [
    ['input', inputSchema],
    ['output', outputSchema],
  ] as const) {
    if (schema === undefined) continue;
    try {
      compileSchema(schema);
    } catch (error) {
      problems.push(`${label} schema does not compile: ${(error as Error).message}`);
    }
  }
  if (problems.length > 0)
    throw new ConfigurationError({ message: `Tool '${options.name}' is invalid.`, problems });
  const tool: ToolDefinition<Input, Output> = {
    specVersion: 1,
    id: options.id ?? options.name,
    name: options.name,
    description: options.description,
    inputSchema,
    idempotent: options.idempotent ?? false,
    timeoutMs,
    capability: options.capability ?? toolDefaults.capability,
    accessesPrivateData: options.accessesPrivateData ?? false,
    receivesUntrustedInput: options.receivesUntrustedInput ?? false,
    communicatesExternally: options.communicatesExternally ?? false,
    requiresApproval: options.requiresApproval ?? false,
    maxRetries: options.maxRetries ?? toolDefaults.maxRetries,
    execute: options.execute,
  };
  if (outputSchema !== undefined) tool.outputSchema = outputSchema;
  if (options.rateLimit) tool.rateLimit = options.rateLimit;
  if (options.cacheTtlMs !== undefined) tool.cacheTtlMs = options.cacheTtlMs;
  if (options.reconcile) tool.reconcile = options.reconcile;
  return tool;
}

function toJsonSchema<T>(schema: SchemaInput<T>): JsonSchema {
  if (schema instanceof z.ZodType) return z.toJSONSchema(schema, { target: 'draft-2020-12' }) as JsonSchema;
  return schema;
}
