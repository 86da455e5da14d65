/**
 * Makes flowstack tools of AI SDK tools (`tool({ description, inputSchema, execute })`, named by their
 * key in a tool set, as the AI SDK names them). An AI SDK tool says nothing about its effects, so each
 * gets flowstack's safe defaults — not idempotent (never retried), no private data, no outside contact —
 * unless the caller declares otherwise per tool
 * (docs/decisions/0072-schemas-and-tools-from-other-libraries.md).
 */
import { ConfigurationError } from '../errors/index.js';
import { type DefineToolOptions, defineTool } from './define-tool.js';
import type { SchemaSource } from './read-schema.js';
import type { ToolDefinition } from './tool-definition.js';

/** The fields of an AI SDK tool that flowstack uses. */
export interface AiSdkToolLike {
  description?: string;
  inputSchema: unknown;
  outputSchema?: unknown;
  /** Called with the parsed input and `{ toolCallId, messages: [], abortSignal }`. */
  execute?: (input: never, options: never) => unknown;
}

/** What flowstack needs to know of a tool that the AI SDK does not say: its effects and limits. */
export type AiSdkToolSettings = Partial<
  Pick<
    DefineToolOptions<unknown, unknown>,
    | 'idempotent'
    | 'timeoutMs'
    | 'capability'
    | 'accessesPrivateData'
    | 'receivesUntrustedInput'
    | 'communicatesExternally'
    | 'requiresApproval'
    | 'maxRetries'
    | 'rateLimit'
    | 'cacheTtlMs'
    | 'parallel'
  >
>;

/**
 * Turns an AI SDK tool set into flowstack tools; `settings` declares, per tool name, what the AI SDK
 * cannot say. A tool without `execute` (one the AI SDK leaves to the client) cannot run here: refused.
 *
 * @example
 * const tools = toolsFromAiSdk({ get_weather: tool({ description, inputSchema, execute }) },
 *   { get_weather: { idempotent: true } });
 * createAgent({ model, flows, tools });
 */
export function toolsFromAiSdk(
  toolSet: Readonly<Record<string, AiSdkToolLike>>,
  settings: Readonly<Record<string, AiSdkToolSettings>> = {},
): ToolDefinition[] {
  const unknown = Object.keys(settings).filter((name) => !(name in toolSet));
  if (unknown.length > 0)
    throw new ConfigurationError({
      message: 'Settings were given for tools that are not in the tool set.',
      problems: unknown.map((name) => `no tool named '${name}'`),
    });
  return Object.entries(toolSet).map(([name, aiTool]) => {
    const execute = aiTool.execute;
    if (typeof execute !== 'function')
      throw new ConfigurationError({
        message: `AI SDK tool '${name}' has no execute: the AI SDK leaves it to the client, and flowstack can only run tools that execute.`,
      });
    return defineTool<unknown, unknown>({
      ...settings[name],
      name,
      description: aiTool.description ?? '',
      input: aiTool.inputSchema as SchemaSource<unknown>,
      ...(aiTool.outputSchema !== undefined ? { output: aiTool.outputSchema as SchemaSource<unknown> } : {}),
      execute: async (input, context) =>
        finalValue(
          await (execute as (input: unknown, options: unknown) => unknown)(input, {
            toolCallId: context.callId,
            messages: [],
            abortSignal: context.signal,
          }),
        ),
    });
  });
}

/** An AI SDK tool may stream preliminary results; its last one is the result. */
async function finalValue(result: unknown): Promise<unknown> {
  if (typeof result !== 'object' || result === null || !(Symbol.asyncIterator in result)) return result;
  let last: unknown;
  for await (const value of result as AsyncIterable<unknown>) last = value;
  return last;
}
