import { describe, expect, it } from 'vitest';
import { copyWith } from './copy-with.js';

describe('copyWith', () => {
  it('makes what a spread makes: the base with the changes over it, the base untouched', () => {
    const flow = { id: 'f1', name: 'book', status: 'active' as string, slots: { city: 'Oslo' } };
    const done = copyWith(flow, { status: 'completed', result: { booked: true } });
    expect(done).toEqual({ ...flow, status: 'completed', result: { booked: true } });
    expect(Object.keys(done)).toEqual(Object.keys({ ...flow, status: 'completed', result: 1 }));
    expect(flow.status).toBe('active');
    expect(done).not.toBe(flow);
    // A shallow copy, as a spread is.
    expect(done.slots).toBe(flow.slots);
  });

  it('keeps a key the changes give as undefined, as a spread does', () => {
    const copy = copyWith({ a: 1, b: 2 }, { b: undefined });
    expect(copy).toEqual({ a: 1, b: undefined });
    expect(Object.hasOwn(copy, 'b')).toBe(true);
  });
});
