/**
 * Whether `JSON.stringify(value)` is at most `limit` characters long, without serializing a value that
 * plainly fits. An upper bound of the text's length is counted first (a character of a string or key may
 * take six when escaped, a number at most 25); only a value whose bound passes the limit is serialized
 * and measured. Values the bound does not know (a `toJSON` method, a bigint, nesting past 32 levels) are
 * serialized too, so the answer is always the one serializing gives, and so is any exception.
 */
export function jsonFitsWithin(value: unknown, limit: number): boolean {
  if (lengthBound(value, limit, 0) <= limit) return true;
  return (JSON.stringify(value)?.length ?? 0) <= limit;
}

const maxDepth = 32;
/** The longest text of a finite number: `-1.7976931348623157e+308` is 24 characters. */
const maxNumberChars = 25;

/** An upper bound of the serialized length, or `Infinity` once it passes `budget` or meets a value it does not know. */
function lengthBound(value: unknown, budget: number, depth: number): number {
  switch (typeof value) {
    case 'string':
      return 2 + 6 * value.length;
    case 'number':
      return maxNumberChars;
    case 'boolean':
      return 5;
    case 'undefined':
    case 'function':
    case 'symbol':
      return 4;
    case 'object':
      break;
    default:
      return Number.POSITIVE_INFINITY;
  }
  if (value === null) return 4;
  if (depth >= maxDepth || typeof (value as { toJSON?: unknown }).toJSON === 'function')
    return Number.POSITIVE_INFINITY;
  let total = 2;
  if (Array.isArray(value)) {
    for (const item of value) {
      total += 1 + lengthBound(item, budget - total, depth + 1);
      if (total > budget) return Number.POSITIVE_INFINITY;
    }
    return total;
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    total +=
      4 + 6 * key.length + lengthBound((value as Record<string, unknown>)[key], budget - total, depth + 1);
    if (total > budget) return Number.POSITIVE_INFINITY;
  }
  return total;
}
