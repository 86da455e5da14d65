import * as crypto from 'node:crypto';

/**
 * JSON with object keys sorted, so that equal values give equal text whatever their key order. A value
 * whose objects already have their keys in order (most tool arguments) is written as it is, without a
 * sorted copy of every object and a replacer call for every value.
 */
export function canonicalJson(value: unknown): string {
  return isCanonical(value, 0) ? JSON.stringify(value) : JSON.stringify(value, sortKeys);
}

/** A short SHA-256 of a value's canonical JSON; binds approvals and journal rows to exact arguments. */
export function stableHash(value: unknown): string {
  return sha256Hex(canonicalJson(value) ?? 'undefined').slice(0, 32);
}

/** `crypto.hash` where Node has it (20.12 and later): the same digest as `createHash`, in one call. */
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;

function sha256Hex(text: string): string {
  return oneShot ? oneShot('sha256', text, 'hex') : crypto.createHash('sha256').update(text).digest('hex');
}

function sortKeys(_key: string, v: unknown): unknown {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
  // fromEntries defines each key, so an own `__proto__` key is kept as a key rather than set as the prototype.
  return Object.fromEntries(
    Object.keys(v)
      .sort()
      .map((key) => [key, (v as Record<string, unknown>)[key]]),
  );
}

/** Deeper than this, the value takes the sorting path (which has no recursion of its own to bound). */
const maxCheckedDepth = 32;

/**
 * Whether `JSON.stringify` alone already writes `value` canonically: every object's own keys in sorted
 * order, and nothing with a `toJSON` (whose result the sorting path sorts, and this one would not).
 */
function isCanonical(value: unknown, depth: number): boolean {
  if (value === null || typeof value !== 'object') return true;
  if (depth > maxCheckedDepth) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (!isCanonical(item, depth + 1)) return false;
    return true;
  }
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    if (i > 0 && (keys[i - 1] as string) > key) return false;
    if (!isCanonical((value as Record<string, unknown>)[key], depth + 1)) return false;
  }
  return true;
}
