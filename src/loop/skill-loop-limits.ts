/**
 * The skill loop's bounds (DESIGN.md §5, invariant 9): their defaults are the `skillLoop` rows of the one
 * table (`src/spec/default-bounds.ts`), a column per task complexity; `resolveSkillLoopLimits` applies
 * overrides agent, then thread, then call. A name that is no bound, or a value that is not a whole number
 * at least the bound's least value, is a `ConfigurationError` — never ignored.
 */
import { ConfigurationError } from '../errors/index.js';
import { defaultBounds, type SkillLoopLimits, type TaskComplexity } from '../spec/index.js';

export type { SkillLoopLimits, TaskComplexity } from '../spec/index.js';

/** The defaults, by task complexity (rows of `defaultBounds`). */
export const defaultSkillLoopLimits: Readonly<Record<TaskComplexity, Readonly<SkillLoopLimits>>> =
  defaultBounds.skillLoop;

/** One layer's overrides: for both columns, and per column under `simple` / `complex` (which win). */
export type SkillLoopOverrides = Partial<SkillLoopLimits> & {
  simple?: Partial<SkillLoopLimits>;
  complex?: Partial<SkillLoopLimits>;
};

export interface ResolveSkillLoopLimitsOptions {
  complexity?: TaskComplexity;
  /** Overrides set on the agent. */
  agent?: SkillLoopOverrides | undefined;
  /** Overrides stored with the thread. */
  thread?: SkillLoopOverrides | undefined;
  /** Overrides for this one call; they win. */
  call?: SkillLoopOverrides | undefined;
}

/** Bounds below which a run could not make a single model call. */
const leastOne: ReadonlySet<string> = new Set(['maxIterations', 'maxTurns', 'maxOutputTokens']);

/**
 * The limits in force: the defaults for the task's complexity, then agent, thread and call overrides,
 * later ones winning. Throws a `ConfigurationError` listing every override that cannot take effect.
 *
 * @example
 * resolveSkillLoopLimits({ complexity: 'complex', agent: { maxTurns: 50 }, call: { maxIterations: 8 } });
 */
export function resolveSkillLoopLimits(options: ResolveSkillLoopLimitsOptions = {}): SkillLoopLimits {
  const complexity = options.complexity ?? 'simple';
  const limits: SkillLoopLimits = { ...defaultSkillLoopLimits[complexity] };
  const problems: string[] = [];
  for (const [name, layer] of [
    ['agent', options.agent],
    ['thread', options.thread],
    ['call', options.call],
  ] as const) {
    if (layer === undefined) continue;
    problems.push(...checkSkillLoopLimits(layer, name));
    override(limits, layer);
    const column = layer[complexity];
    if (column) override(limits, column);
  }
  if (problems.length > 0)
    throw new ConfigurationError({ message: 'The skill loop limits are invalid.', problems });
  return limits;
}

function override(limits: SkillLoopLimits, layer: Partial<SkillLoopLimits>): void {
  for (const key of Object.keys(limits) as (keyof SkillLoopLimits)[]) {
    const value = layer[key];
    if (value !== undefined) limits[key] = value;
  }
}

/**
 * Every problem of one layer's overrides, each naming the setting by `path` (`execution.maxTurns`):
 * an unknown name, or a value that is not a whole number at least the bound's least value (1 for
 * `maxIterations`, `maxTurns` and `maxOutputTokens`, else 0).
 */
export function checkSkillLoopLimits(overrides: unknown, path: string): string[] {
  if (typeof overrides !== 'object' || overrides === null || Array.isArray(overrides))
    return [`${path} must be an object of skill loop bounds`];
  const known = defaultSkillLoopLimits.simple;
  return Object.entries(overrides).flatMap(([key, value]): string[] => {
    if ((key === 'simple' || key === 'complex') && !path.endsWith('.simple') && !path.endsWith('.complex'))
      return value === undefined ? [] : checkSkillLoopLimits(value, `${path}.${key}`);
    if (!Object.hasOwn(known, key)) return [`${path}.${key} is not a bound of the skill loop`];
    if (value === undefined) return [];
    const least = leastOne.has(key) ? 1 : 0;
    return Number.isInteger(value) && (value as number) >= least
      ? []
      : [`${path}.${key} must be a whole number ≥ ${least} (got ${describe(value)})`];
  });
}

function describe(value: unknown): string {
  return typeof value === 'number' ? String(value) : JSON.stringify(value);
}
