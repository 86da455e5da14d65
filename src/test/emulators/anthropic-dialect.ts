/**
 * Anthropic's Messages API (`POST /v1/messages`) as `@ai-sdk/anthropic` calls it. Rules enforced:
 * `max_tokens` given; only `user` and `assistant` turns (the system prompt is a top-level field), the
 * first from the user, never two of the same role in a row; every `tool_use` block answered by a
 * `tool_result` in the next message, and every `tool_result` answering a `tool_use` of the message
 * before, the results first in their message; tool input schemas of type object; a structured-output schema (`output_config.format`) or a
 * strict tool within Claude's supported subset. Structured output is constrained to its schema, as
 * Claude's is, so a value the schema has no room for is lost — the way a real model loses it.
 */
import { splitText } from '../internal/split-text.js';
import type { EmulatedCall, EmulatedOutput, ProviderDialect, SseEvent } from './provider-dialect.js';
import { findAnthropicSchemaProblem } from './schema-rules.js';

type Json = Record<string, unknown>;

function blocksOf(message: Json): Json[] {
  return Array.isArray(message.content) ? (message.content as Json[]) : [];
}

function checkConversation(messages: Json[]): string | undefined {
  let pendingToolUses: string[] = [];
  for (const [index, message] of messages.entries()) {
    if (message.role !== 'user' && message.role !== 'assistant')
      return `messages.${index}.role: Input should be 'user' or 'assistant' (a system prompt goes in the top-level \`system\` field)`;
    if (index === 0 && message.role !== 'user') return 'messages: the first message must use the "user" role';
    if (index > 0 && messages[index - 1]?.role === message.role)
      return 'messages: roles must alternate between "user" and "assistant"';
    const results = blocksOf(message)
      .filter((b) => b.type === 'tool_result')
      .map((b) => String(b.tool_use_id));
    const blocks = blocksOf(message);
    const firstOther = blocks.findIndex((b) => b.type !== 'tool_result');
    if (firstOther >= 0 && blocks.slice(firstOther).some((b) => b.type === 'tool_result'))
      return `messages.${index}.content: \`tool_result\` blocks must come first in the content, before any other block`;
    const unexpected = results.find((id) => !pendingToolUses.includes(id));
    if (unexpected !== undefined)
      return `messages.${index}.content: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${unexpected}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
    const missing = pendingToolUses.filter((id) => !results.includes(id));
    if (missing.length > 0)
      return `messages.${index - 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
    pendingToolUses = blocksOf(message)
      .filter((b) => b.type === 'tool_use')
      .map((b) => String(b.id));
  }
  if (pendingToolUses.length > 0)
    return `messages: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${pendingToolUses.join(', ')}.`;
  return undefined;
}

function checkMessagesRequest(body: Json): string | undefined {
  if (typeof body.model !== 'string') return 'model: Field required';
  if (typeof body.max_tokens !== 'number') return 'max_tokens: Field required';
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0) return 'messages: at least one message is required';
  const conversation = checkConversation(messages as Json[]);
  if (conversation) return conversation;
  for (const [index, tool] of ((body.tools as Json[] | undefined) ?? []).entries()) {
    if (!/^[a-zA-Z0-9_-]{1,128}$/.test(String(tool.name)))
      return `tools.${index}.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'`;
    const schema = tool.input_schema as Json | undefined;
    if (schema?.type !== 'object') return `tools.${index}.input_schema.type: Input should be 'object'`;
    if (tool.strict === true) {
      const problem = findAnthropicSchemaProblem(schema);
      if (problem) return `tools.${index}: ${problem}`;
    }
  }
  const format = (body.output_config as Json | undefined)?.format as Json | undefined;
  if (format !== undefined) {
    if (format.type !== 'json_schema') return "output_config.format.type: Input should be 'json_schema'";
    const problem = findAnthropicSchemaProblem(format.schema);
    if (problem) return problem;
  }
  return undefined;
}

function describeMessages(body: Json): EmulatedCall {
  const messages = (body.messages as Json[]) ?? [];
  const lastUser = [...messages].reverse().find((m) => m.role === 'user');
  const format = (body.output_config as Json | undefined)?.format as Json | undefined;
  const lastText =
    typeof lastUser?.content === 'string'
      ? lastUser.content
      : blocksOf(lastUser ?? {})
          .filter((b) => b.type === 'text')
          .map((b) => String(b.text))
          .join('');
  const system = body.system;
  const tools = (body.tools as Json[] | undefined) ?? [];
  const forced = (body.tool_choice as Json | undefined)?.type === 'any';
  const jsonTool = forced && format === undefined ? tools.find((t) => t.name === 'json') : undefined;
  return {
    body,
    ...(format?.schema ? { schema: format.schema as Json } : {}),
    ...(jsonTool ? { schema: jsonTool.input_schema as Json, jsonToolName: 'json' } : {}),
    system:
      typeof system === 'string'
        ? system
        : Array.isArray(system)
          ? system.map((b) => String((b as Json).text)).join('\n')
          : '',
    afterToolResult: blocksOf(messages.at(-1) ?? {}).some((b) => b.type === 'tool_result'),
    constrained: format !== undefined,
    toolNames: ((body.tools as Json[] | undefined) ?? []).map((t) => String(t.name)),
    lastUser: lastText,
    stream: body.stream === true,
  };
}

function stopReason(output: EmulatedOutput): string {
  if (output.refusal !== undefined) return 'refusal';
  if (output.finish === 'length') return 'max_tokens';
  if (output.finish === 'tool-calls') return 'tool_use';
  return 'end_turn';
}

function contentBlocks(output: EmulatedOutput): Json[] {
  const blocks: Json[] = [];
  const text = [output.refusal, output.text].filter((t) => t !== undefined && t !== '').join('\n');
  if (text !== '') blocks.push({ type: 'text', text });
  for (const call of output.toolCalls)
    blocks.push({ type: 'tool_use', id: call.callId, name: call.toolName, input: JSON.parse(call.input) });
  return blocks;
}

function respondMessages(output: EmulatedOutput, id: string, model: string): unknown {
  return {
    id,
    type: 'message',
    role: 'assistant',
    model,
    content: contentBlocks(output),
    stop_reason: stopReason(output),
    stop_sequence: null,
    usage: { input_tokens: 20, output_tokens: 10 },
  };
}

function streamMessages(output: EmulatedOutput, id: string, model: string): SseEvent[] {
  const events: SseEvent[] = [];
  const push = (data: Json) => events.push({ event: String(data.type), data });
  push({
    type: 'message_start',
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 20, output_tokens: 0 },
    },
  });
  for (const [index, block] of contentBlocks(output).entries()) {
    if (block.type === 'text') {
      push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      for (const text of splitText(String(block.text)))
        push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } });
    } else {
      push({ type: 'content_block_start', index, content_block: { ...block, input: {} } });
      for (const partial of splitText(JSON.stringify(block.input)))
        push({
          type: 'content_block_delta',
          index,
          delta: { type: 'input_json_delta', partial_json: partial },
        });
    }
    push({ type: 'content_block_stop', index });
  }
  push({
    type: 'message_delta',
    delta: { stop_reason: stopReason(output), stop_sequence: null },
    usage: { output_tokens: 10 },
  });
  push({ type: 'message_stop' });
  return events;
}

function anthropicError(status: number, message: string): unknown {
  const type = status === 400 ? 'invalid_request_error' : status === 404 ? 'not_found_error' : 'api_error';
  return { type: 'error', error: { type, message } };
}

export const anthropicDialect: ProviderDialect = {
  name: 'Anthropic messages',
  path: '/v1/messages',
  callIdPrefix: 'toolu_',
  check: checkMessagesRequest,
  describe: describeMessages,
  respond: respondMessages,
  stream: streamMessages,
  errorBody: anthropicError,
};
