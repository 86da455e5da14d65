/**
 * The execution settings (seed 002 `ExecutionConfig`) that every skill run of a turn goes by — user-facing
 * flows, plan items and background flows alike: the skill loop's bounds for each complexity, and how plan
 * items run. Resolved call > thread > agent over the one table of defaults (`defaultBounds`); a setting
 * that is unknown or out of range is a `ConfigurationError`, raised before anything runs.
 */
import { ConfigurationError } from '../errors/index.js';
import { checkSkillLoopLimits, resolveSkillLoopLimits, type SkillLoopOverrides } from '../loop/index.js';
import { defaultBounds, type ExecutionConfig, type ExecutionOptions } from '../spec/index.js';

export const defaultExecutionConfig: Readonly<ExecutionConfig> = {
  skillLoop: defaultBounds.skillLoop,
  ...defaultBounds.execution,
};

export interface ExecutionConfigLayers {
  /** `createAgent({ execution })`. */
  agent?: ExecutionOptions | undefined;
  /** `agent.send({ threadExecution })`, as saved with the thread. */
  thread?: ExecutionOptions | undefined;
  /** `agent.send({ execution })`; wins. */
  call?: ExecutionOptions | undefined;
}

/**
 * @example
 * resolveExecutionConfig({ agent: { maxTurns: 60 }, call: { maxIterations: 2 } }).skillLoop.simple.maxIterations; // 2
 */
export function resolveExecutionConfig(layers: ExecutionConfigLayers): ExecutionConfig {
  const named = [
    ['agent', layers.agent],
    ['thread', layers.thread],
    ['call', layers.call],
  ] as const;
  const problems = named.flatMap(([name, layer]) => (layer ? checkExecutionOptions(layer, name) : []));
  if (problems.length > 0)
    throw new ConfigurationError({ message: 'The execution settings are invalid.', problems });
  const skillLoop = {
    agent: skillLoopPart(layers.agent),
    thread: skillLoopPart(layers.thread),
    call: skillLoopPart(layers.call),
  };
  const resolved: ExecutionConfig = {
    skillLoop: {
      simple: resolveSkillLoopLimits({ complexity: 'simple', ...skillLoop }),
      complex: resolveSkillLoopLimits({ complexity: 'complex', ...skillLoop }),
    },
    ...defaultBounds.execution,
  };
  for (const [, layer] of named) {
    if (layer?.maxStepOutputChars !== undefined) resolved.maxStepOutputChars = layer.maxStepOutputChars;
    if (layer?.delegation !== undefined) resolved.delegation = layer.delegation;
  }
  return resolved;
}

const planSettings: ReadonlySet<string> = new Set(['maxStepOutputChars', 'delegation']);
const skillLoopSettings: ReadonlySet<string> = new Set([
  ...Object.keys(defaultBounds.skillLoop.simple),
  'simple',
  'complex',
]);

/** What an agent has for the settings only plans read: whether plans run, whether there are A2A agents. */
export interface ExecutionEffects {
  plans: boolean;
  a2aAgents: boolean;
}

/**
 * Every problem of one layer's settings, each naming the setting by `path` (`execution.maxTurns`), e.g. to
 * check a thread's settings before they are saved. Given `effects`, a setting that could not take effect
 * (a plan setting while plans are off, `delegation` without A2A agents) is a problem too.
 */
export function checkExecutionOptions(
  options: unknown,
  path = 'execution',
  effects?: ExecutionEffects,
): string[] {
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    return [`${path} must be an object of execution settings`];
  const problems: string[] = [];
  const skillLoop: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) {
    if (skillLoopSettings.has(key)) skillLoop[key] = value;
    else if (!planSettings.has(key))
      problems.push(
        `${path}.${key} is not an execution setting (a skill loop bound, maxStepOutputChars or delegation)`,
      );
  }
  problems.push(...checkSkillLoopLimits(skillLoop, path));
  const { maxStepOutputChars, delegation } = options as ExecutionOptions;
  if (maxStepOutputChars !== undefined && (!Number.isInteger(maxStepOutputChars) || maxStepOutputChars < 100))
    problems.push(
      `${path}.maxStepOutputChars must be a whole number ≥ 100 (got ${String(maxStepOutputChars)})`,
    );
  if (delegation !== undefined && typeof delegation !== 'boolean')
    problems.push(`${path}.delegation must be true or false (got ${JSON.stringify(delegation)})`);
  if (problems.length > 0 || !effects) return problems;
  const planOnly = (['maxStepOutputChars', 'delegation'] as const).filter(
    (key) => (options as ExecutionOptions)[key] !== undefined,
  );
  if (!effects.plans)
    return planOnly.map(
      (key) => `${path}.${key} is read only by plans, and plans are off (createAgent({ plan }))`,
    );
  if (delegation !== undefined && !effects.a2aAgents)
    return [`${path}.delegation needs A2A agents to delegate to (createAgent({ a2a: { agents } }))`];
  return [];
}

/**
 * A thread's settings after `threadExecution`: the given ones over the saved ones, column by column.
 */
export function mergeExecutionOptions(
  saved: ExecutionOptions | undefined,
  given: ExecutionOptions,
): ExecutionOptions {
  const merged: ExecutionOptions = { ...saved, ...given };
  for (const column of ['simple', 'complex'] as const)
    if (saved?.[column] && given[column]) merged[column] = { ...saved[column], ...given[column] };
  return merged;
}

function skillLoopPart(layer: ExecutionOptions | undefined): SkillLoopOverrides | undefined {
  if (!layer) return undefined;
  const { maxStepOutputChars: _chars, delegation: _delegation, ...skillLoop } = layer;
  return skillLoop;
}
