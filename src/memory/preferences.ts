/**
 * User preferences (seed 000 memory manager): the agent's defaults, overridden by what this thread
 * learnt. Pure functions over plain records.
 */

/** The preferences in force: thread values over agent defaults. */
export function resolvePreferences(
  defaults: Readonly<Record<string, unknown>> | undefined,
  thread: Readonly<Record<string, unknown>> | undefined,
): Record<string, unknown> {
  return { ...defaults, ...thread };
}

/** Sets (or with `undefined`, removes) one preference of the thread. */
export function setPreference(
  thread: Readonly<Record<string, unknown>> | undefined,
  key: string,
  value: unknown,
): Record<string, unknown> {
  const next = { ...thread };
  if (value === undefined) delete next[key];
  else next[key] = value;
  return next;
}
