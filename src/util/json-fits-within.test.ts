import { describe, expect, it } from 'vitest';
import { jsonFitsWithin } from './json-fits-within.js';

const exact = (value: unknown, limit: number) => (JSON.stringify(value)?.length ?? 0) <= limit;

describe('jsonFitsWithin', () => {
  const values: unknown[] = [
    { sum: 2 },
    { text: 'STEP 1', nested: { list: [1, 'two', null, true, { deep: -1.7976931348623157e308 }] } },
    'a "quoted" \\ line\nwith \u0001 control characters and ünïcode',
    [undefined, () => 1, Symbol('s')],
    { skipped: undefined, kept: 0 },
    { when: new Date(0) },
    'x'.repeat(5_000),
    Array.from({ length: 300 }, (_, i) => ({ row: i, name: `name ${i}` })),
    null,
    12.5,
    undefined,
  ];

  it('answers what serializing the value answers, at every limit around its length', () => {
    for (const value of values) {
      const length = JSON.stringify(value)?.length ?? 0;
      for (const limit of [0, length - 1, length, length + 1, 4_000, 100_000])
        expect(
          jsonFitsWithin(value, limit),
          `${String(JSON.stringify(value)).slice(0, 40)} within ${limit}`,
        ).toBe(exact(value, limit));
    }
  });

  it('throws as serializing does for a value JSON cannot hold', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    expect(() => jsonFitsWithin(cyclic, 4_000)).toThrow(TypeError);
    expect(() => jsonFitsWithin({ big: 10n }, 4_000)).toThrow(TypeError);
  });
});
