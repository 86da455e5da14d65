import { describe, expect, it } from 'vitest';
import { flatString } from './flat-string.js';

describe('flatString', () => {
  it('returns the same text, whatever it holds', () => {
    const built = JSON.stringify({ list: Array.from({ length: 50 }, (_, i) => ({ id: `item-${i}` })) });
    for (const text of ['', '42', ' 7 ', 'not a number', built, `${built}:${built}`])
      expect(flatString(text)).toBe(text);
  });
});
