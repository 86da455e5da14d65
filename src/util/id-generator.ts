import { randomUUID } from 'node:crypto';

/** Makes ids; injected so that tests get predictable ones. */
export type IdGenerator = (prefix: string) => string;

export const randomIdGenerator: IdGenerator = (prefix) =>
  `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 20)}`;

/** Ids `prefix_1`, `prefix_2` … counted per prefix; for tests and reproducible demos. */
export function createSequentialIdGenerator(): IdGenerator {
  const counters = new Map<string, number>();
  return (prefix) => {
    const next = (counters.get(prefix) ?? 0) + 1;
    counters.set(prefix, next);
    return `${prefix}_${next}`;
  };
}
