import { describe, expect, it } from 'vitest';
import { compileSchema } from './compile-schema.js';

describe('compileSchema', () => {
  it('gives equal schemas made afresh (a tool defined per turn) one validator, so nothing piles up', () => {
    const schema = () => ({ type: 'object', properties: { item: { type: 'string' } }, required: ['item'] });
    const first = compileSchema(schema());
    expect(compileSchema(schema())).toBe(first);
    expect(first({ item: 'x' })).toEqual({ valid: true });
    expect(first({})).toEqual({ valid: false, problems: ["/ must have required property 'item'"] });
  });

  it('keeps schemas that differ apart', () => {
    const strings = compileSchema({ type: 'string' });
    const numbers = compileSchema({ type: 'number' });
    expect(strings).not.toBe(numbers);
    expect(numbers('x')).toMatchObject({ valid: false });
  });
});
