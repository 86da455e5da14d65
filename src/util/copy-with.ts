/**
 * A copy of `base` with `changes` over it: the object `{ ...base, ...changes }` makes. Records made on
 * every step or turn are copied with this rather than a spread, for its cost on Node 20
 * (docs/decisions/0064).
 */
export function copyWith<Base extends object, Changes extends object>(
  base: Base,
  changes: Changes,
): CopiedWith<Base, Changes> {
  return Object.assign({}, base, changes) as unknown as CopiedWith<Base, Changes>;
}

/** The type of `{ ...base, ...changes }`, for each member of a union `Base`. */
type CopiedWith<Base, Changes> = Base extends unknown ? Omit<Base, keyof Changes> & Changes : never;
