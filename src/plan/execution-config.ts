/**
 * `ExecutionConfig` (seed 002): its defaults (the skill loop's own for a simple task, the step output bound
 * declared here; DESIGN.md §5), and its resolution
 * call > thread > agent. A value that is not a positive whole number (or, for `delegation`, a boolean)
 * is a `ConfigurationError`, raised before anything runs.
 */
import { ConfigurationError } from '../errors/index.js';
import { defaultSkillLoopLimits } from '../loop/index.js';
import type { ExecutionConfig } from '../spec/index.js';

export const defaultExecutionConfig: Readonly<ExecutionConfig> = {
  maxIterations: defaultSkillLoopLimits.simple.maxIterations,
  enforcementRetries: defaultSkillLoopLimits.simple.enforcementRetries,
  maxStepOutputChars: 60_000,
  delegation: false,
};

export interface ExecutionConfigLayers {
  agent?: Partial<ExecutionConfig> | undefined;
  thread?: Partial<ExecutionConfig> | undefined;
  call?: Partial<ExecutionConfig> | undefined;
}

export function resolveExecutionConfig(layers: ExecutionConfigLayers): ExecutionConfig {
  const resolved: ExecutionConfig = { ...defaultExecutionConfig };
  for (const layer of [layers.agent, layers.thread, layers.call]) {
    if (!layer) continue;
    for (const [key, value] of Object.entries(layer)) {
      if (value !== undefined) (resolved as unknown as Record<string, unknown>)[key] = value;
    }
  }
  const problems = checkExecutionConfig(resolved);
  if (problems.length > 0)
    throw new ConfigurationError({ message: 'The execution settings are invalid.', problems });
  return resolved;
}

/** Every problem of a (partial) config, e.g. to check a thread's settings before they are saved. */
export function checkExecutionConfig(config: Partial<ExecutionConfig>): string[] {
  const problems: string[] = [];
  const known = new Set(Object.keys(defaultExecutionConfig));
  for (const key of Object.keys(config)) if (!known.has(key)) problems.push(`unknown setting '${key}'`);
  const bounds: [keyof ExecutionConfig, number][] = [
    ['maxIterations', 1],
    ['enforcementRetries', 0],
    ['maxStepOutputChars', 100],
  ];
  for (const [key, min] of bounds) {
    const value = config[key];
    if (value !== undefined && (!Number.isInteger(value) || (value as number) < min))
      problems.push(`${key} must be a whole number of at least ${min}, not ${JSON.stringify(value)}`);
  }
  if (config.delegation !== undefined && typeof config.delegation !== 'boolean')
    problems.push(`delegation must be true or false, not ${JSON.stringify(config.delegation)}`);
  return problems;
}
