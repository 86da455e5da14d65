import type { LanguageModelV3Message } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import type { ToolCallResult } from '../spec/index.js';
import { cleanContext, findOrphanedToolCalls } from './clean-context.js';
import { measurePromptChars } from './estimate-prompt-tokens.js';
import { upstreamTrace } from './fixtures/currency-tools.js';
import {
  assistantMessage,
  loopMessageKind,
  loopNote,
  textToolResultsMessage,
  toolMessage,
} from './skill-messages.js';

const error = (callId: string, toolName: string, message: string): ToolCallResult => ({
  status: 'error',
  callId,
  toolName,
  error: { category: 'server_error', message, retryable: false },
  contextText: `Error (server_error) from tool '${toolName}': ${message}`,
});
const success = (callId: string, toolName: string, output: unknown): ToolCallResult => ({
  status: 'success',
  callId,
  toolName,
  output,
  contextText: JSON.stringify(output),
});
const step = (text: string, calls: [string, string, unknown][], results: ToolCallResult[]) => [
  assistantMessage({
    text,
    toolCalls: calls.map(([toolCallId, toolName, input]) => ({
      toolCallId,
      toolName,
      input: JSON.stringify(input),
    })),
  }),
  toolMessage(results),
];

const transcript = (): LanguageModelV3Message[] => [
  ...step(
    'Looking up the table first.',
    [['c1', 'lookup_rate_table', { currency: 'EUR' }]],
    [success('c1', 'lookup_rate_table', { base: 'EUR', rates: { NOK: 11.52 } })],
  ),
  ...step(
    '',
    [
      ['c2', 'get_rate', { from: 'EUR', to: 'NOK' }],
      ['c3', 'fetch_history', { pair: 'EURNOK' }],
    ],
    [error('c2', 'get_rate', upstreamTrace('rates-api')), success('c3', 'fetch_history', { points: [1, 2] })],
  ),
  loopNote('reflection-summary', 'Reflection (backtrack 1): an older summary.'),
  ...step(
    '',
    [['c4', 'get_rate', { from: 'EUR', to: 'NOK', v: 2 }]],
    [error('c4', 'get_rate', upstreamTrace('rates-api'))],
  ),
];

describe('cleanContext', () => {
  it('keeps every tool call paired with its result', () => {
    const { messages } = cleanContext(transcript(), { summary: 'S', maxErrorChars: 160 });
    expect(findOrphanedToolCalls(transcript())).toEqual([]);
    expect(findOrphanedToolCalls(messages)).toEqual([]);
    const callIds = messages.flatMap((m) =>
      m.role === 'assistant' ? m.content.flatMap((p) => (p.type === 'tool-call' ? [p.toolCallId] : [])) : [],
    );
    expect(callIds).toEqual(['c1', 'c2', 'c3', 'c4']);
  });

  it('shrinks each error to one short line and leaves successful results untouched', () => {
    const { messages, shortenedErrors } = cleanContext(transcript(), { summary: 'S', maxErrorChars: 160 });
    expect(shortenedErrors).toBe(2);
    const outputs = messages.flatMap((m) =>
      m.role === 'tool' ? m.content.flatMap((p) => (p.type === 'tool-result' ? [p.output] : [])) : [],
    );
    for (const output of outputs) {
      if (output.type === 'error-text') {
        expect(output.value.length).toBeLessThanOrEqual(160);
        expect(output.value).not.toContain('\n');
        expect(output.value).toMatch(/^Error \(server_error\) from tool 'get_rate': rates-api responded 410/);
      }
    }
    expect(outputs.filter((o) => o.type === 'text').map((o) => o.value)).toEqual([
      '{"base":"EUR","rates":{"NOK":11.52}}',
      '{"points":[1,2]}',
    ]);
  });

  it('leaves exactly one reflection summary, the new one, at the end', () => {
    const { messages } = cleanContext(transcript(), {
      summary: 'What failed, why, what next.',
      maxErrorChars: 160,
    });
    const summaries = messages.filter((m) => loopMessageKind(m) === 'reflection-summary');
    expect(summaries).toHaveLength(1);
    expect(messages.at(-1)).toEqual(loopNote('reflection-summary', 'What failed, why, what next.'));
  });

  it('makes the transcript measurably shorter, and reports by how much', () => {
    const before = transcript();
    const cleaned = cleanContext(before, {
      summary: 'Attempt 1 failed: get_rate is retired. Next: lookup_rate_table.',
      maxErrorChars: 160,
    });
    expect(cleaned.charsBefore).toBe(measurePromptChars(before));
    expect(cleaned.charsAfter).toBe(measurePromptChars(cleaned.messages));
    expect(cleaned.charsAfter).toBeLessThan(cleaned.charsBefore / 2);
  });

  it('shrinks errors in results of calls made in text, too', () => {
    const messages = [
      assistantMessage({ text: '<skill>get_rate …</skill>', toolCalls: [] }),
      textToolResultsMessage([
        error('t1', 'get_rate', upstreamTrace('rates-api')),
        success('t2', 'x', { ok: 1 }),
      ]),
    ];
    const cleaned = cleanContext(messages, { summary: 'S', maxErrorChars: 80 });
    const parts = cleaned.messages[1]?.role === 'user' ? cleaned.messages[1].content : [];
    const texts = parts.map((p) => (p.type === 'text' ? p.text : ''));
    expect(texts[0]?.length).toBeLessThanOrEqual(80);
    expect(texts[1]).toBe('Result of x (t2): {"ok":1}');
  });

  it('is pure: the input transcript is not changed', () => {
    const before = transcript();
    const copy = structuredClone(before);
    cleanContext(before, { summary: 'S', maxErrorChars: 20 });
    expect(before).toEqual(copy);
  });

  it('finds an orphaned tool call', () => {
    const orphan = [
      assistantMessage({ text: '', toolCalls: [{ toolCallId: 'x1', toolName: 'get_rate', input: '{}' }] }),
    ];
    expect(findOrphanedToolCalls(orphan)).toEqual(['x1']);
  });
});
