import { describe, expect, it } from 'vitest';
import { canonicalJson, stableHash } from './stable-hash.js';

/** The definition: every object's keys sorted, through a replacer (the path for unsorted values). */
function sortedJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, (v as Record<string, unknown>)[k]]),
    );
  });
}

/** Small random JSON-like values with short keys, in random key order (seeded, so a failure repeats). */
function randomValue(next: () => number, depth = 0): unknown {
  const pick = next();
  if (depth > 3 || pick < 0.3) return [null, true, 1.5, 'text', -3, undefined][Math.floor(next() * 6)];
  if (pick < 0.5) return Array.from({ length: Math.floor(next() * 4) }, () => randomValue(next, depth + 1));
  const keys = ['b', 'a', 'c', '10', '9', 'aa', 'B', 'é', ''].filter(() => next() < 0.5);
  if (next() < 0.5) keys.sort();
  return Object.fromEntries(keys.map((k) => [k, randomValue(next, depth + 1)]));
}

function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

describe('canonicalJson', () => {
  it('gives equal text for equal values whatever their key order', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: null } })).toBe(
      canonicalJson({ a: { c: null, d: [1, { y: 2, z: 1 }] }, b: 1 }),
    );
    expect(canonicalJson({ b: 1, a: 2 })).toBe('{"a":2,"b":1}');
    expect(stableHash({ b: 1, a: 2 })).toBe(stableHash({ a: 2, b: 1 }));
  });

  it('hashes to the first 32 hex digits of the SHA-256 of that text, as rows and approvals saved before keep', () => {
    // Hashes are stored (journal rows, approvals): a change of algorithm would orphan every saved one.
    expect(stableHash({ b: 1, a: 2 })).toBe('d3626ac30a87e6f7a6428233b3c68299');
    expect(stableHash(undefined)).toBe('eb045d78d273107348b0300c01d29b75');
  });

  it('writes what sorting every object writes, for sorted and unsorted values alike', () => {
    const next = seeded(20_261_126);
    for (let i = 0; i < 2_000; i++) {
      const value = randomValue(next);
      expect(canonicalJson(value)).toBe(sortedJson(value));
    }
  });

  it("sorts what a value's toJSON returns", () => {
    const value = { when: { toJSON: () => ({ z: 1, a: 2 }) }, list: [{ toJSON: () => ({ y: 1, b: 2 }) }] };
    expect(canonicalJson(value)).toBe('{"list":[{"b":2,"y":1}],"when":{"a":2,"z":1}}');
    expect(canonicalJson({ at: new Date(0) })).toBe('{"at":"1970-01-01T00:00:00.000Z"}');
  });
});

describe('stableHash of an own __proto__ key', () => {
  it('tells apart argument objects that differ only by an own __proto__ key', () => {
    // JSON.parse makes `__proto__` an own key, as it does for a model's arguments.
    const plain = JSON.parse('{"to":"ada@example.com","amount":5}');
    const withProto = JSON.parse('{"to":"ada@example.com","amount":5,"__proto__":{"to":"eve@example.com"}}');
    const otherProto = JSON.parse('{"to":"ada@example.com","amount":5,"__proto__":{"to":"mal@example.com"}}');
    expect(stableHash(withProto)).not.toBe(stableHash(plain));
    expect(stableHash(withProto)).not.toBe(stableHash(otherProto));
    expect(canonicalJson(withProto)).toBe(
      '{"__proto__":{"to":"eve@example.com"},"amount":5,"to":"ada@example.com"}',
    );
    // Key order still does not matter.
    const reordered = JSON.parse('{"__proto__":{"to":"eve@example.com"},"to":"ada@example.com","amount":5}');
    expect(stableHash(reordered)).toBe(stableHash(withProto));
  });
});
