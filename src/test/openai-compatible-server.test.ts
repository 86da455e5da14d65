import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, stepCountIs, streamText, tool } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type OpenAICompatibleServer,
  type OpenAICompatibleServerStep,
  startOpenAICompatibleServer,
} from './openai-compatible-server.js';

let server: OpenAICompatibleServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(steps: OpenAICompatibleServerStep[]) {
  server = await startOpenAICompatibleServer({ steps });
  const provider = createOpenAICompatible({ name: 'local', baseURL: server.url, includeUsage: true });
  return { server, model: provider('test-model') };
}

const lookup = tool({
  inputSchema: z.object({ orderId: z.string(), verbose: z.boolean() }),
  execute: async ({ orderId }) => ({ orderId, status: 'shipped' }),
});

describe.each([false, true])('startOpenAICompatibleServer (streamed: %s)', (streamed) => {
  const run = (options: Parameters<typeof generateText>[0]) =>
    streamed
      ? (async () => {
          const result = streamText({ ...options, onError: () => {} } as Parameters<typeof streamText>[0]);
          return { text: await result.text, steps: await result.steps, usage: await result.totalUsage };
        })()
      : generateText(options);

  it('answers with text and usage', async () => {
    const { server, model } = await start([
      {
        match: { lastUser: /hello/i },
        text: 'Hello! How can I help you today?',
        usage: { inputTokens: 12, outputTokens: 9 },
      },
    ]);
    const result = await run({ model, prompt: 'Hello there' });

    expect(result.text).toBe('Hello! How can I help you today?');
    expect(result.usage).toMatchObject({ inputTokens: 12, outputTokens: 9, totalTokens: 21 });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({
      model: 'test-model',
      messages: [{ role: 'user', content: 'Hello there' }],
    });
    expect(server.requests[0]?.stream ?? false).toBe(streamed);
  });

  it('sends tool calls that the client parses, then answers with the result', async () => {
    const { server, model } = await start([
      {
        text: streamed ? 'Checking.' : undefined,
        toolCalls: [
          { toolName: 'lookup', input: { orderId: 'A-17', verbose: false } },
          { toolName: 'lookup', input: { orderId: 'B-2', verbose: true }, callId: 'call_custom' },
        ],
      },
      { match: { request: (body) => body.messages.some((m) => m.role === 'tool') }, text: 'Both shipped.' },
    ]);
    const result = await run({
      model,
      tools: { lookup },
      prompt: 'Where are my orders?',
      stopWhen: stepCountIs(2),
    });

    const [first] = result.steps;
    expect(first?.finishReason).toBe('tool-calls');
    expect(
      first?.toolCalls.map(({ toolCallId, toolName, input }) => ({ toolCallId, toolName, input })),
    ).toEqual([
      { toolCallId: 'call_1', toolName: 'lookup', input: { orderId: 'A-17', verbose: false } },
      { toolCallId: 'call_custom', toolName: 'lookup', input: { orderId: 'B-2', verbose: true } },
    ]);
    expect(first?.toolResults.map((r) => r.output)).toEqual([
      { orderId: 'A-17', status: 'shipped' },
      { orderId: 'B-2', status: 'shipped' },
    ]);
    expect(result.text).toBe('Both shipped.');
    expect(server.requests[0]?.tools?.map((t) => t.function.name)).toEqual(['lookup']);
    expect(server.requests[1]?.messages.filter((m) => m.role === 'tool')).toMatchObject([
      { tool_call_id: 'call_1', content: '{"orderId":"A-17","status":"shipped"}' },
      { tool_call_id: 'call_custom' },
    ]);
    expect(server.remaining()).toBe(0);
  });

  it('passes reasoning as reasoning_content', async () => {
    const { model } = await start([{ reasoning: 'The user wants a number.', text: '42' }]);
    const result = await run({ model, prompt: 'A number?' });
    expect(result.text).toBe('42');
    expect(result.steps[0]?.reasoningText).toBe('The user wants a number.');
  });

  it('delivers malformed arguments verbatim', async () => {
    const { model } = await start([
      { toolCalls: [{ toolName: 'lookup', input: {} }], rawToolInput: '{"orderId": ' },
    ]);
    const result = await run({ model, tools: { lookup }, prompt: 'x' });
    expect(result.steps[0]?.content).toContainEqual(
      expect.objectContaining({ type: 'tool-error', toolName: 'lookup', input: '{"orderId": ' }),
    );
  });
});

describe('startOpenAICompatibleServer errors', () => {
  it('answers an unknown route with 404 and an OpenAI error body', async () => {
    const { server } = await start([]);
    const response = await fetch(`${server.url}/embeddings`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: {
        message: 'Unknown route POST /v1/embeddings',
        type: 'invalid_request_error',
        param: null,
        code: 'not_found',
      },
    });
  });

  it('answers a request no step matches with 500 naming the request', async () => {
    const { server, model } = await start([{ match: { lastUser: 'refund' }, text: 'ok', label: 'refund' }]);
    const failure = await generateText({ model, prompt: 'Book a table', maxRetries: 0 }).catch(
      (error: unknown) => error,
    );

    expect(failure).toMatchObject({ statusCode: 500 });
    const message = (failure as Error).message;
    expect(message).toContain('No script step matches call #1 to the OpenAI-compatible test server');
    expect(message).toContain('model "test-model"');
    expect(message).toContain('last user: "Book a table"');
    expect(message).toContain('#0 "refund" match { lastUser: "refund" }');
    expect(server.requests).toHaveLength(1);
  });

  it('answers a scripted error with its status, and rejects a body that is not a chat request', async () => {
    const { server, model } = await start([{ error: { status: 429, message: 'Slow down' } }]);
    await expect(generateText({ model, prompt: 'x', maxRetries: 0 })).rejects.toMatchObject({
      statusCode: 429,
      message: 'Slow down',
    });
    const response = await fetch(`${server.url}/chat/completions`, { method: 'POST', body: '{"model": 1}' });
    expect(response.status).toBe(400);
  });

  it('refuses, as a real server does, a tool message that answers no call before it', async () => {
    const { server } = await start([{ text: 'unused' }]);
    const response = await fetch(`${server.url}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({
        model: 'm',
        messages: [
          { role: 'user', content: 'go' },
          { role: 'tool', tool_call_id: 'call_9', content: '{}' },
        ],
      }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: { type: 'invalid_request_error', message: expect.stringContaining("role 'tool'") },
    });
    expect(server.remaining()).toBe(1);
  });
});

describe('startOpenAICompatibleServer wire format', () => {
  const body = (stream: boolean) =>
    JSON.stringify({
      model: 'm',
      messages: [{ role: 'user', content: 'go' }],
      stream,
      ...(stream ? { stream_options: { include_usage: true } } : {}),
    });
  const steps: OpenAICompatibleServerStep[] = [
    { text: 'On it.', toolCalls: [{ toolName: 'lookup', input: { orderId: 'A-17' } }], repeat: true },
  ];

  it('sends a chat.completion with content, tool_calls, finish_reason and usage', async () => {
    const { server } = await start(steps);
    const response = await fetch(`${server.url}/chat/completions`, { method: 'POST', body: body(false) });
    expect(await response.json()).toMatchObject({
      object: 'chat.completion',
      model: 'm',
      choices: [
        {
          message: {
            role: 'assistant',
            content: 'On it.',
            tool_calls: [
              {
                id: 'call_1',
                type: 'function',
                function: { name: 'lookup', arguments: '{"orderId":"A-17"}' },
              },
            ],
          },
          finish_reason: 'tool_calls',
        },
      ],
      usage: { prompt_tokens: 1, completion_tokens: 8, total_tokens: 9 },
    });
  });

  it('streams deltas, tool call id and name before argument fragments, finish, usage and [DONE]', async () => {
    const { server } = await start(steps);
    const response = await fetch(`${server.url}/chat/completions`, { method: 'POST', body: body(true) });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = (await response.text()).split('\n\n').filter((event) => event !== '');
    expect(events.every((event) => event.startsWith('data: '))).toBe(true);
    expect(events.at(-1)).toBe('data: [DONE]');
    const chunks = events.slice(0, -1).map((event) => JSON.parse(event.slice('data: '.length)));
    const deltas = chunks.flatMap((chunk) => chunk.choices.map((choice: { delta: unknown }) => choice.delta));
    const toolDeltas = deltas.flatMap((delta) => delta.tool_calls ?? []);

    expect(deltas[0]).toEqual({ role: 'assistant' });
    expect(deltas.map((delta) => delta.content ?? '').join('')).toBe('On it.');
    expect(toolDeltas[0]).toEqual({
      index: 0,
      id: 'call_1',
      type: 'function',
      function: { name: 'lookup', arguments: '' },
    });
    expect(toolDeltas.length).toBeGreaterThan(2);
    expect(toolDeltas.map((delta) => delta.function.arguments).join('')).toBe('{"orderId":"A-17"}');
    expect(chunks.at(-2).choices[0]).toEqual({ index: 0, delta: {}, finish_reason: 'tool_calls' });
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 1, completion_tokens: 8 } });
  });
});
