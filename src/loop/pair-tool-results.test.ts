import type { LanguageModelV3Message } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { findOrphanedToolCalls } from './clean-context.js';
import { findOrphanedToolResults, interruptedResultText, pairToolResults } from './pair-tool-results.js';

const call = (id: string) => ({
  type: 'tool-call' as const,
  toolCallId: id,
  toolName: 'look',
  input: {},
});
const result = (id: string, value = 'ok') => ({
  type: 'tool-result' as const,
  toolCallId: id,
  toolName: 'look',
  output: { type: 'text' as const, value },
});

describe('pairToolResults (pure)', () => {
  it('leaves a paired transcript alone', () => {
    const messages: LanguageModelV3Message[] = [
      { role: 'assistant', content: [call('a')] },
      { role: 'tool', content: [result('a')] },
    ];
    expect(pairToolResults(messages)).toBeUndefined();
  });

  it('answers an orphan inside the tool message that follows its call, recorded or interrupted', () => {
    const messages: LanguageModelV3Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      { role: 'assistant', content: [call('a'), call('b'), call('c')] },
      { role: 'tool', content: [result('a'), result('ghost')] },
      { role: 'assistant', content: [{ type: 'text', text: 'done' }] },
    ];
    const repaired = pairToolResults(messages, new Map([['b', { text: '42', isError: false }]]));
    expect(repaired).toMatchObject({ recorded: ['b'], interrupted: ['c'], dropped: ['ghost'] });
    const fixed = repaired?.messages ?? [];
    expect(fixed).toHaveLength(4);
    expect(fixed[2]).toEqual({
      role: 'tool',
      content: [
        result('a'),
        result('b', '42'),
        { ...result('c'), output: { type: 'error-text', value: interruptedResultText } },
      ],
    });
    expect(findOrphanedToolCalls(fixed)).toEqual([]);
    expect(findOrphanedToolResults(fixed)).toEqual([]);
  });

  it('puts a tool message of its own after a call with no results at all, and drops an empty one', () => {
    const messages: LanguageModelV3Message[] = [
      { role: 'tool', content: [result('before')] },
      { role: 'assistant', content: [call('x')] },
      { role: 'user', content: [{ type: 'text', text: 'hello?' }] },
    ];
    const fixed = pairToolResults(messages)?.messages ?? [];
    expect(fixed.map((m) => m.role)).toEqual(['assistant', 'tool', 'user']);
  });
});
