/**
 * A shallow copy without the keys whose value is `undefined`, so that an optional field is either
 * present or absent — never `undefined` — and stored records compare equal across stores.
 */
export function copyDefined<T extends object>(value: T): T {
  const copy: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (field !== undefined) copy[key] = field;
  }
  return copy as T;
}
