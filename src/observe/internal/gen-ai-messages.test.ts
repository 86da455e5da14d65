import { describe, expect, it } from 'vitest';
import {
  toGenAiFinishReason,
  toGenAiInput,
  toGenAiOutput,
  toGenAiToolDefinitions,
} from './gen-ai-messages.js';

const asIs = { text: (text: string) => text, value: (value: unknown) => value };

describe('the GenAI conventions shapes', () => {
  it('keeps system messages apart and writes every part of the history as role and parts', () => {
    const { systemInstructions, messages } = toGenAiInput(
      [
        { role: 'system', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is on this?' },
            { type: 'file', mediaType: 'image/png', data: new Uint8Array([1, 2, 3]) },
            { type: 'file', mediaType: 'application/pdf', data: new URL('https://example.com/a.pdf') },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'Look it up.' },
            { type: 'tool-call', toolCallId: 'c1', toolName: 'look', input: { q: 'x' } },
          ],
        },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'c1',
              toolName: 'look',
              output: { type: 'json', value: { hit: 1 } },
            },
            {
              type: 'tool-result',
              toolCallId: 'c2',
              toolName: 'pay',
              output: { type: 'execution-denied', reason: 'no' },
            },
          ],
        },
      ],
      asIs,
    );
    expect(systemInstructions).toEqual([{ type: 'text', content: 'Be brief.' }]);
    expect(messages).toEqual([
      {
        role: 'user',
        parts: [
          { type: 'text', content: 'What is on this?' },
          // A file is described, never copied.
          { type: 'file', mime_type: 'image/png', modality: 'image' },
          {
            type: 'uri',
            modality: 'document',
            mime_type: 'application/pdf',
            uri: 'https://example.com/a.pdf',
          },
        ],
      },
      {
        role: 'assistant',
        parts: [
          { type: 'reasoning', content: 'Look it up.' },
          { type: 'tool_call', id: 'c1', name: 'look', arguments: { q: 'x' } },
        ],
      },
      {
        role: 'tool',
        parts: [
          { type: 'tool_call_response', id: 'c1', response: { hit: 1 } },
          { type: 'tool_call_response', id: 'c2', response: { denied: true, reason: 'no' } },
        ],
      },
    ]);
  });

  it('passes every text and value through the filter (the redactor)', () => {
    const filter = { text: (text: string) => text.replace('secret', '***'), value: () => '[value]' };
    const { systemInstructions, messages } = toGenAiInput(
      [
        { role: 'system', content: 'the secret' },
        {
          role: 'assistant',
          content: [{ type: 'tool-call', toolCallId: 'c', toolName: 't', input: { k: 'secret' } }],
        },
      ],
      filter,
    );
    expect(JSON.stringify([systemInstructions, messages])).not.toContain('secret');
    const output = toGenAiOutput([{ type: 'text', text: 'a secret' }], 'stop', filter);
    expect(output).toEqual([
      { role: 'assistant', parts: [{ type: 'text', content: 'a ***' }], finish_reason: 'stop' },
    ]);
  });

  it("parses a tool call's JSON input in the answer, and keeps text that is not JSON", () => {
    const [message] = toGenAiOutput(
      [
        { type: 'tool-call', toolCallId: 'a', toolName: 't', input: '{"n":1}' },
        { type: 'tool-call', toolCallId: 'b', toolName: 't', input: 'not json' },
      ],
      'tool-calls',
      asIs,
    );
    expect(message?.parts).toEqual([
      { type: 'tool_call', id: 'a', name: 't', arguments: { n: 1 } },
      { type: 'tool_call', id: 'b', name: 't', arguments: 'not json' },
    ]);
    expect(message?.finish_reason).toBe('tool_call');
  });

  it('names tools only by type and name unless details are asked for', () => {
    const tools = [
      {
        type: 'function' as const,
        name: 'f',
        description: 'Does f.',
        inputSchema: { type: 'object' as const },
      },
      { type: 'provider' as const, id: 'openai.web_search' as const, name: 'web_search', args: {} },
    ];
    expect(toGenAiToolDefinitions(tools, false)).toEqual([
      { type: 'function', name: 'f' },
      { type: 'openai.web_search', name: 'web_search' },
    ]);
    expect(toGenAiToolDefinitions(tools, true)[0]).toEqual({
      type: 'function',
      name: 'f',
      description: 'Does f.',
      parameters: { type: 'object' },
    });
  });

  it('spells finish reasons as the conventions do', () => {
    expect(
      ['stop', 'length', 'content-filter', 'tool-calls', 'error', 'other'].map(toGenAiFinishReason),
    ).toEqual(['stop', 'length', 'content_filter', 'tool_call', 'error', 'other']);
  });
});
