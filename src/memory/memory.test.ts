import { describe, expect, it } from 'vitest';
import { composePrompt } from './compose-prompt.js';
import { compileHistory, recentWindow } from './conversation-history.js';
import { resolvePreferences, setPreference } from './preferences.js';
import { readScratchpad, writeScratchpad } from './scratchpad.js';

describe('scratchpad', () => {
  it('keeps 64 snippets and evicts the least recently used, where reading counts as use', () => {
    let entries = writeScratchpad([], {
      key: 'first',
      text: 'kept because it is read',
      source: 'a',
      time: 0,
    });
    for (let i = 1; i < 64; i++)
      entries = writeScratchpad(entries, { key: `k${i}`, text: `t${i}`, source: 'a', time: i });
    expect(entries).toHaveLength(64);
    const read = readScratchpad(entries, { keys: ['first'] });
    expect(read.found.map((e) => e.text)).toEqual(['kept because it is read']);
    entries = writeScratchpad(read.entries, { key: 'new', text: 'new', source: 'b', time: 99 });
    expect(entries).toHaveLength(64);
    expect(entries.map((e) => e.key)).toContain('first');
    expect(entries.map((e) => e.key)).not.toContain('k1');
    expect(entries.at(-1)?.key).toBe('new');
  });

  it('replaces an entry written under the same key and caps long text', () => {
    let entries = writeScratchpad([], { key: 'a', text: 'old', source: 's', time: 1 });
    entries = writeScratchpad(entries, { key: 'a', text: 'x'.repeat(5000), source: 's', time: 2 });
    expect(entries).toHaveLength(1);
    expect(entries[0]?.text.length).toBe(2001);
  });
});

describe('conversation history', () => {
  const messages = [
    { role: 'assistant' as const, text: 'Welcome' },
    { role: 'user' as const, text: 'one' },
    { role: 'assistant' as const, text: 'r1' },
    { role: 'user' as const, text: 'two' },
    { role: 'assistant' as const, text: 'r2' },
    { role: 'user' as const, text: 'three   with\nspaces' },
  ];
  it('takes the last turns, starting at a user message', () => {
    expect(recentWindow(messages, 2).map((m) => m.text)).toEqual(['two', 'r2', 'three   with\nspaces']);
    expect(recentWindow(messages, 10).map((m) => m.text)[0]).toBe('one');
  });
  it('compiles a transcript that drops the oldest lines first', () => {
    expect(compileHistory(messages, { turns: 2 })).toBe('User: two\nAgent: r2\nUser: three with spaces');
    expect(compileHistory(messages, { turns: 3, maxChars: 40 })).toBe('Agent: r2\nUser: three with spaces');
  });
});

describe('prompt composition and preferences', () => {
  it('puts blocks in one order and fences call-specific guidance', () => {
    expect(composePrompt({ persona: 'P', domain: 'D', thread: 'T', task: 'X', guidance: 'G' })).toBe(
      'P\n\nDomain: D\n\nThread instructions:\nT\n\nX\n\n[BEGIN_CUSTOM_GUIDANCE]\nG\n[END_CUSTOM_GUIDANCE]',
    );
    expect(composePrompt({ persona: 'P', task: 'X', guidance: '  ' })).toBe('P\n\nX');
  });
  it('lets thread preferences override agent defaults', () => {
    const thread = setPreference(setPreference(undefined, 'chart', 'line'), 'units', 'EUR');
    expect(
      resolvePreferences({ chart: 'bar', locale: 'en' }, setPreference(thread, 'units', undefined)),
    ).toEqual({
      chart: 'line',
      locale: 'en',
    });
  });
});
