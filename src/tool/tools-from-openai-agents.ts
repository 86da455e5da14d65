/**
 * Makes flowstack tools of OpenAI Agents SDK function tools (`tool({ name, description, parameters,
 * execute })` of `@openai/agents`). Read by their shape, never imported: a user of flowstack who does not
 * use the OpenAI SDK does not install it. Like `toolsFromAiSdk`, each tool gets flowstack's safe defaults
 * unless the caller declares its effects per tool; what the OpenAI runner would do around the tool and
 * flowstack cannot (its guardrails) is refused rather than dropped
 * (docs/decisions/0086-mcp-resources-prompts-list-changed-and-openai-agents-tools.md).
 */
import { ConfigurationError, ToolCallError } from '../errors/index.js';
import { defineTool } from './define-tool.js';
import type { ToolDefinition, ToolExecutionContext } from './tool-definition.js';
import type { AiSdkToolSettings } from './tools-from-ai-sdk.js';

/** The fields of an OpenAI Agents SDK `FunctionTool` that flowstack uses. */
export interface OpenAIAgentsToolLike {
  type: 'function';
  name: string;
  description: string;
  /** JSON Schema of the arguments (strict unless the tool was made with `strict: false`). */
  parameters: unknown;
  /** Parses the argument text with the tool's own schema, then runs it. */
  invoke: (runContext: never, input: string, details?: never) => Promise<unknown>;
  /** Asked with the parsed arguments whether this call needs a person's approval. */
  needsApproval?: (runContext: never, input: never, callId?: string) => Promise<boolean>;
  timeoutMs?: number;
  inputGuardrails?: readonly unknown[];
  outputGuardrails?: readonly unknown[];
}

/** What flowstack needs to know of a tool that the OpenAI Agents SDK does not say: its effects and limits. */
export type OpenAIAgentsToolSettings = AiSdkToolSettings;

/**
 * The text the SDK's default error function makes of an error the tool threw: the call failed, though
 * `invoke` returns a value.
 */
const sdkErrorPrefix = 'An error occurred while running the tool. Please try again. Error: ';

/**
 * Turns OpenAI Agents SDK function tools into flowstack tools, named as the SDK names them; `settings`
 * declares, per tool name, what the SDK cannot say. The arguments are checked against the tool's JSON
 * Schema before it runs, and `invoke` receives them as the JSON text it expects. Unless `settings` says
 * `requiresApproval`, the tool's own `needsApproval` is asked per call, and a call it wants approved is
 * refused (not run) with an `auth_error` that names the setting to declare.
 *
 * @example
 * import { tool } from '@openai/agents';
 * const getWeather = tool({ name: 'get_weather', description, parameters: z.object({ city: z.string() }), execute });
 * const tools = toolsFromOpenAIAgents([getWeather], { get_weather: { idempotent: true } });
 * createAgent({ model, flows, tools });
 */
export function toolsFromOpenAIAgents(
  agentTools: readonly OpenAIAgentsToolLike[],
  settings: Readonly<Record<string, OpenAIAgentsToolSettings>> = {},
): ToolDefinition[] {
  const problems: string[] = [];
  for (const [index, candidate] of agentTools.entries()) problems.push(...checkAgentsTool(candidate, index));
  const names = new Set(agentTools.map((t) => t?.name));
  for (const name of Object.keys(settings))
    if (!names.has(name)) problems.push(`settings were given for '${name}', which is not among the tools`);
  if (problems.length > 0)
    throw new ConfigurationError({ message: 'Some OpenAI Agents SDK tools cannot be adapted.', problems });
  return agentTools.map((agentsTool) => {
    const declared = settings[agentsTool.name] ?? {};
    return defineTool<unknown, unknown>({
      ...(agentsTool.timeoutMs !== undefined ? { timeoutMs: agentsTool.timeoutMs } : {}),
      ...declared,
      name: agentsTool.name,
      description: agentsTool.description,
      input: agentsTool.parameters as Record<string, unknown>,
      execute: (input, context) =>
        invokeAgentsTool({ agentsTool, input, context, approvalDeclared: declared.requiresApproval }),
    });
  });
}

/** Why one given value cannot be adapted (empty when it can). */
function checkAgentsTool(value: OpenAIAgentsToolLike, index: number): string[] {
  const at = `tools[${index}]${typeof value?.name === 'string' ? ` ('${value.name}')` : ''}`;
  if (value?.type !== 'function' || typeof value.invoke !== 'function')
    return [`${at} is not an OpenAI Agents SDK function tool (type 'function' with invoke)`];
  const guarded = [
    ...(value.inputGuardrails?.length ? ['input'] : []),
    ...(value.outputGuardrails?.length ? ['output'] : []),
  ];
  return guarded.length > 0
    ? [
        `${at} has ${guarded.join(' and ')} guardrails, which only the OpenAI runner runs: check its input in its schema or execute, and gate it with requiresApproval`,
      ]
    : [];
}

async function invokeAgentsTool(call: {
  agentsTool: OpenAIAgentsToolLike;
  input: unknown;
  context: ToolExecutionContext;
  approvalDeclared: boolean | undefined;
}): Promise<unknown> {
  const { agentsTool, input, context } = call;
  // The SDK's run context, as much of it as a tool reads outside an OpenAI run: no shared context value.
  const runContext = { context: undefined, toolInput: input } as never;
  // A person approved every call already (`requiresApproval: true`), or the caller said none is needed.
  if (call.approvalDeclared === undefined && agentsTool.needsApproval) {
    const wanted = await agentsTool.needsApproval(runContext, input as never, context.callId);
    if (wanted)
      throw new ToolCallError({
        category: 'auth_error',
        message: `Tool '${agentsTool.name}' asks for a person's approval of this call, and flowstack was not told it needs one: declare requiresApproval for it in the settings of toolsFromOpenAIAgents.`,
      });
  }
  const text = JSON.stringify(input);
  let output: unknown;
  try {
    output = await agentsTool.invoke(runContext, text, {
      toolCall: { type: 'function_call', callId: context.callId, name: agentsTool.name, arguments: text },
      signal: context.signal,
    } as never);
  } catch (error) {
    throw toToolCallError(error);
  }
  if (typeof output === 'string' && output.startsWith(sdkErrorPrefix))
    throw new ToolCallError({ category: 'server_error', message: output.slice(sdkErrorPrefix.length) });
  return output;
}

/** The SDK's errors, by their names, as flowstack's categories; any other error is the tool's own failure. */
function toToolCallError(error: unknown): unknown {
  const name = (error as { name?: unknown } | null)?.name;
  const message = error instanceof Error ? error.message : String(error);
  if (name === 'ToolTimeoutError') return new ToolCallError({ category: 'timeout', message, cause: error });
  if (name === 'InvalidToolInputError' || name === 'ModelBehaviorError')
    return new ToolCallError({ category: 'validation_error', message, cause: error });
  return error;
}
