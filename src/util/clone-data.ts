/**
 * A deep copy of JSON-shaped data (plain objects, arrays, primitives), as the dialogue state and other
 * snapshot parts are: cheaper than `structuredClone` on such small values, which a turn copies at every
 * step. Anything else met on the way (a `Date`, a `Map`, a class
 * instance) is copied by `structuredClone`, so the result is never less faithful than it would be.
 */
export function cloneData<T>(value: T): T {
  return copy(value) as T;
}

function copy(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = copy(value[i]);
    return out;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return structuredClone(value);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) out[key] = copy((value as Record<string, unknown>)[key]);
  return out;
}
