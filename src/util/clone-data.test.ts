import { describe, expect, it } from 'vitest';
import { cloneData } from './clone-data.js';

describe('cloneData', () => {
  it('copies nested objects and arrays: changing the copy leaves the original as it was', () => {
    const original = {
      stack: [
        {
          id: 'f1',
          name: 'book',
          status: 'active',
          slots: { city: 'Lisbon', dates: ['a', 'b'], empty: null },
        },
      ],
      flags: { digressed: false },
      background: [],
    };
    const copy = cloneData(original);
    expect(copy).toEqual(original);
    const flow = copy.stack[0] as (typeof copy.stack)[number];
    flow.slots.dates.push('c');
    flow.slots.city = 'Porto';
    copy.flags.digressed = true;
    expect(original.stack[0]?.slots).toEqual({ city: 'Lisbon', dates: ['a', 'b'], empty: null });
    expect(original.flags.digressed).toBe(false);
    expect(copy.stack[0]).not.toBe(original.stack[0]);
  });

  it('keeps keys whose value is undefined, as structuredClone does', () => {
    const copy = cloneData({ a: undefined, b: 1 });
    expect(Object.keys(copy)).toEqual(['a', 'b']);
  });

  it('copies values that are not plain data (a Date, a Map) faithfully instead of flattening them', () => {
    const when = new Date('2026-11-25T10:00:00Z');
    const copy = cloneData({ when, seen: new Map([['k', 1]]) });
    expect(copy.when).toBeInstanceOf(Date);
    expect(copy.when).not.toBe(when);
    expect(copy.when.getTime()).toBe(when.getTime());
    expect(copy.seen.get('k')).toBe(1);
  });

  it('copies objects without a prototype', () => {
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { x: { y: 1 } });
    const copy = cloneData(bare);
    expect(copy).toEqual({ x: { y: 1 } });
    expect(copy.x).not.toBe(bare.x);
  });
});
