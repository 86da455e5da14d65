/**
 * OpenAI's Responses API (`POST /v1/responses`) as `@ai-sdk/openai`'s `openai(id)` calls it. Rules
 * enforced: every `function_call_output` answers an earlier `function_call` of the input and every
 * `function_call` is answered; function parameters are object schemas; a strict `text.format` schema or
 * strict tool follows OpenAI's strict-mode rules. Streams use the Responses event types.
 */
import { splitText } from '../internal/split-text.js';
import type { EmulatedCall, EmulatedOutput, ProviderDialect, SseEvent } from './provider-dialect.js';
import { findOpenAIStrictProblem } from './schema-rules.js';

type Json = Record<string, unknown>;

function checkResponsesRequest(body: Json): string | undefined {
  if (typeof body.model !== 'string') return "Missing required parameter: 'model'.";
  const input = body.input;
  if (!Array.isArray(input) || input.length === 0) return "Invalid 'input': expected a non-empty array.";
  const called: string[] = [];
  const answered: string[] = [];
  for (const raw of input as Json[]) {
    if (raw.type === 'function_call') called.push(String(raw.call_id));
    else if (raw.type === 'function_call_output') {
      const id = String(raw.call_id);
      if (!called.includes(id)) return `No tool call found for function call output with call_id ${id}.`;
      answered.push(id);
    } else if (raw.type === 'item_reference') continue;
    else if (!['system', 'developer', 'user', 'assistant'].includes(String(raw.role)))
      return `Invalid value: '${String(raw.role ?? raw.type)}'. Supported roles are system, developer, user, assistant.`;
  }
  const unanswered = called.find((id) => !answered.includes(id));
  if (unanswered !== undefined) return `No tool output found for function call ${unanswered}.`;
  for (const tool of (body.tools as Json[] | undefined) ?? []) {
    if (tool.type !== 'function') continue;
    const parameters = tool.parameters as Json | undefined;
    if (parameters && parameters.type !== 'object')
      return `Invalid schema for function '${String(tool.name)}': schema must be a JSON Schema of 'type: "object"'.`;
    if (tool.strict === true) {
      const problem = findOpenAIStrictProblem(parameters);
      if (problem) return `Invalid schema for function '${String(tool.name)}': ${problem}.`;
    }
  }
  const format = (body.text as Json | undefined)?.format as Json | undefined;
  if (format?.type === 'json_schema' && format.strict === true) {
    const problem = findOpenAIStrictProblem(format.schema);
    if (problem) return `Invalid schema for response_format '${String(format.name)}': ${problem}.`;
  }
  return undefined;
}

function describeResponses(body: Json): EmulatedCall {
  const input = (body.input as Json[]) ?? [];
  const lastUser = [...input].reverse().find((m) => m.role === 'user');
  const format = (body.text as Json | undefined)?.format as Json | undefined;
  const schema = format?.type === 'json_schema' ? (format.schema as Json) : undefined;
  return {
    body,
    ...(schema ? { schema } : {}),
    ...(format?.name ? { schemaName: String(format.name) } : {}),
    system: input
      .filter((m) => m.role === 'system' || m.role === 'developer')
      .map((m) => readContent(m.content))
      .join('\n'),
    afterToolResult: input.at(-1)?.type === 'function_call_output',
    constrained: format?.strict === true,
    toolNames: ((body.tools as Json[] | undefined) ?? []).map((t) => String(t.name)),
    lastUser: readContent(lastUser?.content),
    stream: body.stream === true,
  };
}

function readContent(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => String((p as Json).text ?? '')).join('');
  return '';
}

const usage = {
  input_tokens: 20,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: 10,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: 30,
};

function incompleteDetails(output: EmulatedOutput) {
  if (output.finish === 'length') return { reason: 'max_output_tokens' };
  if (output.finish === 'content-filter') return { reason: 'content_filter' };
  return null;
}

function outputItems(output: EmulatedOutput, id: string): Json[] {
  const items: Json[] = [];
  const content: Json[] = [];
  if (output.refusal !== undefined) content.push({ type: 'refusal', refusal: output.refusal });
  if (output.text !== '') content.push({ type: 'output_text', text: output.text, annotations: [] });
  if (content.length > 0)
    items.push({ type: 'message', id: `msg_${id}`, role: 'assistant', status: 'completed', content });
  output.toolCalls.forEach((call, index) => {
    items.push({
      type: 'function_call',
      id: `fc_${id}_${index}`,
      call_id: call.callId,
      name: call.toolName,
      arguments: call.input,
      status: 'completed',
    });
  });
  return items;
}

function respondResponses(output: EmulatedOutput, id: string, model: string): unknown {
  const incomplete = incompleteDetails(output);
  return {
    id,
    object: 'response',
    created_at: 0,
    model,
    status: incomplete ? 'incomplete' : 'completed',
    output: outputItems(output, id),
    incomplete_details: incomplete,
    usage,
  };
}

function streamResponses(output: EmulatedOutput, id: string, model: string): SseEvent[] {
  const events: SseEvent[] = [];
  const push = (data: Json) => events.push({ event: String(data.type), data });
  push({ type: 'response.created', response: { id, created_at: 0, model } });
  for (const [index, item] of outputItems(output, id).entries()) {
    const itemId = String(item.id);
    if (item.type === 'message') {
      push({
        type: 'response.output_item.added',
        output_index: index,
        item: { type: 'message', id: itemId },
      });
      if (output.refusal !== undefined) {
        push({ type: 'response.refusal.delta', item_id: itemId, delta: output.refusal });
        push({ type: 'response.refusal.done', item_id: itemId, refusal: output.refusal });
      }
      for (const delta of splitText(output.text))
        push({ type: 'response.output_text.delta', item_id: itemId, delta });
      push({ type: 'response.output_item.done', output_index: index, item: { type: 'message', id: itemId } });
    } else {
      push({
        type: 'response.output_item.added',
        output_index: index,
        item: { ...item, arguments: '', status: 'in_progress' },
      });
      for (const delta of splitText(String(item.arguments)))
        push({ type: 'response.function_call_arguments.delta', item_id: itemId, output_index: index, delta });
      push({ type: 'response.output_item.done', output_index: index, item });
    }
  }
  const incomplete = incompleteDetails(output);
  push({
    type: incomplete ? 'response.incomplete' : 'response.completed',
    response: { incomplete_details: incomplete, usage },
  });
  return events;
}

function openAIError(status: number, message: string): unknown {
  const type = status >= 500 ? 'server_error' : 'invalid_request_error';
  return { error: { message, type, param: null, code: status === 400 ? 'invalid_request_error' : 'error' } };
}

export const openAIResponsesDialect: ProviderDialect = {
  name: 'OpenAI Responses',
  path: '/v1/responses',
  callIdPrefix: 'call_',
  check: checkResponsesRequest,
  describe: describeResponses,
  respond: respondResponses,
  stream: streamResponses,
  errorBody: openAIError,
};
