/**
 * An option that is given always takes effect; one that cannot is a `ConfigurationError` (STYLE.md rule 15,
 * DESIGN.md invariant 9). The agent's options are checked once at start-up, a call's execution settings
 * when the call is made — every problem listed, and a name that was removed says what replaced it
 * (docs/decisions/0053-one-table-of-bounds.md).
 */
import { ConfigurationError } from '../errors/index.js';
import { checkExecutionOptions } from '../plan/index.js';
import { defaultBounds, type ExecutionOptions } from '../spec/index.js';
import type { AgentOptions } from './agent-types.js';

/** Every option of `createAgent`; the `Record` makes the compiler keep it complete. */
const agentOptionNames: Readonly<Record<keyof AgentOptions, true>> = {
  model: true,
  flows: true,
  tools: true,
  store: true,
  rules: true,
  persona: true,
  domain: true,
  intents: true,
  preferences: true,
  stream: true,
  clock: true,
  ids: true,
  redact: true,
  limits: true,
  toolPipeline: true,
  telemetry: true,
  plan: true,
  execution: true,
  a2a: true,
  files: true,
};

/** Names an earlier version took, and what sets the same thing now. */
const replaced: Readonly<Record<string, string>> = {
  skillLoop:
    'skillLoop was merged into execution: createAgent({ execution: { maxTurns: 60 } }) sets the same bounds',
  'limits.maxSkillIterations':
    'limits.maxSkillIterations was removed: set execution.maxIterations (or execution.simple.maxIterations)',
  'limits.maxSkillIterationsComplex':
    'limits.maxSkillIterationsComplex was removed: set execution.complex.maxIterations',
};

const toolPipelineNames: ReadonlySet<string> = new Set([
  'rateLimiter',
  'rateLimits',
  'rateLimitScope',
  'simulate',
  'simulationTimeoutMs',
  'resultCache',
  'capabilities',
  'approvals',
  'maxConcurrency',
  'retry',
]);

/** Throws a `ConfigurationError` listing every option of `createAgent` that cannot take effect. */
export function assertAgentOptions(options: AgentOptions, planning: boolean): void {
  const problems = [
    ...unknownNames(options, (key) => Object.hasOwn(agentOptionNames, key), ''),
    ...checkLimits(options.limits),
    ...(options.execution !== undefined
      ? checkExecution(options, options.execution, 'execution', planning)
      : []),
    ...checkPlan(options.plan),
    ...checkA2A(options.a2a),
    ...unknownNames(options.toolPipeline, (key) => toolPipelineNames.has(key), 'toolPipeline.'),
  ];
  if (problems.length > 0)
    throw new ConfigurationError({ message: "The agent's options cannot all take effect.", problems });
}

/** Throws a `ConfigurationError` listing every execution setting of a call that cannot take effect. */
export function assertSendExecution(
  options: AgentOptions,
  given: { execution?: ExecutionOptions | undefined; threadExecution?: ExecutionOptions | undefined },
  planning: boolean,
): void {
  const problems = [
    ...(given.execution !== undefined ? checkExecution(options, given.execution, 'execution', planning) : []),
    ...(given.threadExecution !== undefined
      ? checkExecution(options, given.threadExecution, 'threadExecution', planning)
      : []),
  ];
  if (problems.length > 0)
    throw new ConfigurationError({ message: 'The execution settings cannot all take effect.', problems });
}

/** A layer's settings are valid, and those that only plans read are given only when plans run. */
function checkExecution(
  options: AgentOptions,
  execution: ExecutionOptions,
  path: string,
  planning: boolean,
): string[] {
  const problems = checkExecutionOptions(execution, path);
  if (problems.length > 0) return problems;
  const planOnly = (['maxStepOutputChars', 'delegation'] as const).filter(
    (key) => execution[key] !== undefined,
  );
  if (!planning)
    return planOnly.map(
      (key) => `${path}.${key} is read only by plans, and plans are off (createAgent({ plan }))`,
    );
  if (execution.delegation !== undefined && !(options.a2a && options.a2a.agents.length > 0))
    return [`${path}.delegation needs A2A agents to delegate to (createAgent({ a2a: { agents } }))`];
  return [];
}

/** The turn's bounds: known names, numbers ≥ 0. */
function checkLimits(limits: AgentOptions['limits']): string[] {
  if (limits === undefined) return [];
  const known = (key: string) => Object.hasOwn(defaultBounds.limits, key) || key === 'approvalTtlMs';
  return [
    ...unknownNames(limits, known, 'limits.'),
    ...Object.entries(limits).flatMap(([key, value]) =>
      known(key) && value !== undefined && !isCount(value)
        ? [`limits.${key} must be a number ≥ 0 (got ${describe(value)})`]
        : [],
    ),
  ];
}

function checkPlan(plan: AgentOptions['plan']): string[] {
  if (typeof plan !== 'object' || plan === null) return [];
  const problems = unknownNames(
    plan,
    (key) => key === 'failurePolicy' || key === 'treeSearch' || Object.hasOwn(defaultBounds.plan, key),
    'plan.',
  );
  for (const key of ['maxItems', 'maxRounds', 'latsMinItems'] as const) {
    const value = plan[key];
    if (value !== undefined && !isCount(value))
      problems.push(`plan.${key} must be a number ≥ 0 (got ${describe(value)})`);
  }
  if (plan.latsCandidates !== undefined && plan.latsCandidates !== 2 && plan.latsCandidates !== 3)
    problems.push(`plan.latsCandidates must be 2 or 3 (got ${describe(plan.latsCandidates)})`);
  if (plan.treeSearch !== undefined && plan.treeSearch !== 'auto' && plan.treeSearch !== 'off')
    problems.push(`plan.treeSearch must be 'auto' or 'off' (got ${describe(plan.treeSearch)})`);
  const policies = ['stop-and-synthesize', 'skip-and-continue', 're-route'];
  if (plan.failurePolicy !== undefined && !policies.includes(plan.failurePolicy))
    problems.push(
      `plan.failurePolicy must be one of ${policies.join(', ')} (got ${describe(plan.failurePolicy)})`,
    );
  return problems;
}

function checkA2A(a2a: AgentOptions['a2a']): string[] {
  if (a2a?.limits === undefined) return [];
  if (a2a.agents.length === 0) return ['a2a.limits has no effect without a2a.agents'];
  return [
    ...unknownNames(a2a.limits, (key) => Object.hasOwn(defaultBounds.a2a, key), 'a2a.limits.'),
    ...Object.entries(a2a.limits).flatMap(([key, value]) =>
      value !== undefined && !isCount(value)
        ? [`a2a.limits.${key} must be a number ≥ 0 (got ${describe(value)})`]
        : [],
    ),
  ];
}

/** Names in a bag that nothing reads, with the replacement of a removed one. */
function unknownNames(bag: object | undefined, known: (key: string) => boolean, prefix: string): string[] {
  if (bag === undefined) return [];
  return Object.keys(bag)
    .filter((key) => !known(key))
    .map((key) => replaced[`${prefix}${key}`] ?? `${prefix}${key} is not an option flowstack knows`);
}

function isCount(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

function describe(value: unknown): string {
  return typeof value === 'number' ? String(value) : JSON.stringify(value);
}
