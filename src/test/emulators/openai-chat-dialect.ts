/**
 * OpenAI chat completions (`POST /v1/chat/completions`) as `@ai-sdk/openai`'s `openai.chat(id)` and
 * `@ai-sdk/openai-compatible` call it. Rules enforced: known roles; a `tool` message answers a call of
 * the assistant message before it, and every call of an assistant message is answered before the
 * conversation goes on; function parameters are object schemas; a strict response format or strict
 * tool follows OpenAI's strict-mode schema rules. The OpenAI-compatible flavour (vLLM, Ollama) checks
 * the same conversation rules but, like those servers, leaves a non-strict schema alone.
 */
import { toChatCompletion, toChatCompletionChunks } from '../internal/chat-completion-response.js';
import type { EmulatedCall, EmulatedOutput, ProviderDialect, SseEvent } from './provider-dialect.js';
import { findOpenAIStrictProblem } from './schema-rules.js';

type Json = Record<string, unknown>;

const roles = new Set(['system', 'developer', 'user', 'assistant', 'tool']);

/** The conversation rules of chat completions, shared by OpenAI and compatible servers. */
function checkMessages(body: Json): string | undefined {
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0)
    return "Invalid value for 'messages': expected a non-empty array.";
  let open: string[] = [];
  for (const [index, raw] of messages.entries()) {
    const message = raw as Json;
    if (!roles.has(String(message.role)))
      return `Invalid value: '${String(message.role)}'. Supported values are: 'system', 'assistant', 'user', 'tool', 'developer'.`;
    if (message.role === 'tool') {
      const id = String(message.tool_call_id ?? '');
      if (!open.includes(id))
        return `Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'. (messages[${index}], tool_call_id '${id}')`;
      open = open.filter((o) => o !== id);
      continue;
    }
    if (open.length > 0)
      return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${open.join(', ')}`;
    if (message.role === 'assistant' && Array.isArray(message.tool_calls))
      open = (message.tool_calls as Json[]).map((c) => String(c.id));
  }
  if (open.length > 0)
    return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${open.join(', ')}`;
  return undefined;
}

function checkChatRequest(body: Json, enforceStrict: boolean): string | undefined {
  if (typeof body.model !== 'string') return 'you must provide a model parameter';
  const conversation = checkMessages(body);
  if (conversation) return conversation;
  for (const tool of (body.tools as Json[] | undefined) ?? []) {
    const fn = tool.function as Json | undefined;
    const parameters = fn?.parameters as Json | undefined;
    if (!fn || typeof fn.name !== 'string' || !/^[a-zA-Z0-9_-]{1,64}$/.test(fn.name))
      return "Invalid 'tools[].function.name': string does not match pattern.";
    if (parameters && parameters.type !== 'object')
      return `Invalid schema for function '${fn.name}': schema must be a JSON Schema of 'type: "object"'.`;
    if (fn.strict === true && enforceStrict) {
      const problem = findOpenAIStrictProblem(parameters);
      if (problem) return `Invalid schema for function '${fn.name}': ${problem}.`;
    }
  }
  const format = body.response_format as Json | undefined;
  if (format?.type === 'json_schema') {
    const spec = format.json_schema as Json | undefined;
    const name = String(spec?.name ?? '');
    if (!/^[a-zA-Z0-9_-]{1,64}$/.test(name))
      return "Invalid 'response_format.json_schema.name': string does not match pattern.";
    if (spec?.strict === true && enforceStrict) {
      const problem = findOpenAIStrictProblem(spec.schema);
      if (problem) return `Invalid schema for response_format '${name}': ${problem}.`;
    }
  }
  return undefined;
}

function describeChat(body: Json, constrainsStrict: boolean): EmulatedCall {
  const messages = (body.messages as Json[]) ?? [];
  const lastUser = [...messages].reverse().find((m) => m.role === 'user');
  const format = body.response_format as Json | undefined;
  const spec = format?.type === 'json_schema' ? (format.json_schema as Json) : undefined;
  return {
    body,
    ...(spec?.schema ? { schema: spec.schema as Json } : {}),
    ...(spec?.name ? { schemaName: String(spec.name) } : {}),
    system: messages
      .filter((m) => m.role === 'system' || m.role === 'developer')
      .map((m) => readContent(m.content))
      .join('\n'),
    afterToolResult: messages.at(-1)?.role === 'tool',
    constrained: constrainsStrict && spec?.strict === true,
    toolNames: ((body.tools as Json[] | undefined) ?? []).map((t) => String((t.function as Json)?.name)),
    lastUser: readContent(lastUser?.content),
    stream: body.stream === true,
  };
}

function readContent(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => String((p as Json).text ?? '')).join('');
  return '';
}

function toStepOutput(output: EmulatedOutput) {
  return {
    reasoning: undefined,
    text: output.text === '' ? undefined : output.text,
    toolCalls: output.toolCalls.map((c) => ({ toolCallId: c.callId, toolName: c.toolName, input: c.input })),
    finishReason: output.finish,
  };
}

const counts = { input: 20, output: 10, reasoning: 0 };

function respondChat(output: EmulatedOutput, id: string, model: string): unknown {
  const body = toChatCompletion({ id, model, created: 0 }, toStepOutput(output), counts);
  if (output.refusal === undefined) return body;
  const [choice] = body.choices;
  return { ...body, choices: [{ ...choice, message: { ...choice?.message, refusal: output.refusal } }] };
}

function streamChat(output: EmulatedOutput, id: string, model: string): SseEvent[] {
  const chunks = toChatCompletionChunks({ id, model, created: 0 }, toStepOutput(output), {
    counts,
    includeUsage: true,
  });
  if (output.refusal !== undefined)
    chunks.splice(1, 0, {
      id,
      model,
      created: 0,
      object: 'chat.completion.chunk',
      choices: [{ index: 0, delta: { refusal: output.refusal }, finish_reason: null }],
    });
  return chunks.map((data) => ({ data }));
}

function openAIError(status: number, message: string): unknown {
  const type = status >= 500 ? 'server_error' : 'invalid_request_error';
  return { error: { message, type, param: null, code: status === 400 ? 'invalid_request_error' : null } };
}

export const openAIChatDialect: ProviderDialect = {
  name: 'OpenAI chat completions',
  path: '/v1/chat/completions',
  callIdPrefix: 'call_',
  check: (body) => checkChatRequest(body, true),
  describe: (body) => describeChat(body, true),
  respond: respondChat,
  stream: streamChat,
  streamEnd: '[DONE]',
  errorBody: openAIError,
};

export const openAICompatibleDialect: ProviderDialect = {
  ...openAIChatDialect,
  name: 'OpenAI-compatible server',
  check: (body) => checkChatRequest(body, true),
  // A compatible server guides decoding by the schema when one is given (vLLM's guided JSON).
  describe: (body) => describeChat(body, true),
};
