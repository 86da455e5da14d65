import { describe, expect, it } from 'vitest';
import { createTextInterner } from './intern-text.js';

describe('createTextInterner', () => {
  it('hands back the first copy of an equal text', () => {
    const interner = createTextInterner({ maxEntries: 10, maxLength: 100 });
    const first = ['You are', 'a careful assistant'].join(' ');
    const second = ['You are a', 'careful assistant'].join(' ');
    expect(interner.intern(first)).toBe(first);
    expect(interner.intern(second)).toBe(first);
    expect(interner.size).toBe(1);
  });

  it('keeps at most maxEntries texts, starting over when full', () => {
    const interner = createTextInterner({ maxEntries: 3, maxLength: 100 });
    for (const text of ['a', 'b', 'c', 'd']) interner.intern(text);
    expect(interner.size).toBe(1);
    expect(interner.intern('d')).toBe('d');
  });

  it('passes texts longer than maxLength through without keeping them', () => {
    const interner = createTextInterner({ maxEntries: 3, maxLength: 4 });
    expect(interner.intern('too long')).toBe('too long');
    expect(interner.size).toBe(0);
  });
});
