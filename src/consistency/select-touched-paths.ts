import type { FileTouchSpec } from '../spec/index.js';

/**
 * The paths a call changes: the tool's fixed `touches.paths`, then those named in the arguments it
 * declares (`touches.arguments`), in order, each once.
 * A selector is keys joined by dots; `*` stands for every element of an array or value of an object.
 * A selected string is a path, a selected array of strings is several; anything else is ignored (the
 * input schema decides what is valid).
 *
 * @example
 * selectTouchedPaths({ arguments: ['edits.*.path'] }, { edits: [{ path: 'a.txt' }, { path: 'b.txt' }] });
 * // → ['a.txt', 'b.txt']
 */
export function selectTouchedPaths(spec: FileTouchSpec, input: unknown): string[] {
  const paths: string[] = [...(spec.paths ?? [])];
  for (const selector of spec.arguments ?? []) {
    for (const value of select(input, selector.split('.'))) {
      if (typeof value === 'string') paths.push(value);
      else if (Array.isArray(value)) for (const item of value) if (typeof item === 'string') paths.push(item);
    }
  }
  return [...new Set(paths)];
}

function select(value: unknown, keys: readonly string[]): unknown[] {
  if (keys.length === 0) return [value];
  if (typeof value !== 'object' || value === null) return [];
  const [key, ...rest] = keys as [string, ...string[]];
  if (key === '*') {
    const children = Array.isArray(value) ? value : Object.values(value);
    return children.flatMap((child) => select(child, rest));
  }
  if (!Object.hasOwn(value, key)) return [];
  return select((value as Record<string, unknown>)[key], rest);
}
