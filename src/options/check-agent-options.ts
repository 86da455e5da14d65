/**
 * An option that is given always takes effect; one that cannot is a `ConfigurationError` (STYLE.md rule 15,
 * DESIGN.md invariant 9). The agent's options are checked once at start-up, a call's execution settings
 * when the call is made — every problem listed, and a name that was removed says what replaced it
 * (docs/decisions/0053-one-table-of-bounds.md). Each concept checks its own bag (`checkExecutionOptions`,
 * `checkPlanOptions`); this file checks the names around them.
 */
import { ConfigurationError } from '../errors/index.js';
import { checkModelVersion } from '../model/index.js';
import { checkExecutionOptions, checkPlanOptions, type ExecutionEffects } from '../plan/index.js';
import { defaultBounds, type ExecutionOptions } from '../spec/index.js';
import type { AgentOptions } from './agent-options.js';

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
  toolCalling: true,
  clock: true,
  ids: true,
  random: true,
  logger: true,
  redact: true,
  limits: true,
  toolPipeline: true,
  telemetry: true,
  plan: true,
  execution: true,
  a2a: true,
  files: true,
};

const toolPipelineNames: ReadonlySet<string> = new Set(
  'rateLimiter rateLimits rateLimitScope simulate simulationTimeoutMs resultCache capabilities approvals maxConcurrency retry'.split(
    ' ',
  ),
);

/** Names an earlier version took, and what sets the same thing now. */
const replaced: Readonly<Record<string, string>> = {
  skillLoop:
    'skillLoop was merged into execution: createAgent({ execution: { maxTurns: 60 } }) sets the same bounds',
  'limits.maxSkillIterations':
    'limits.maxSkillIterations was removed: set execution.maxIterations (or execution.simple.maxIterations)',
  'limits.maxSkillIterationsComplex':
    'limits.maxSkillIterationsComplex was removed: set execution.complex.maxIterations',
};

/** Throws a `ConfigurationError` listing every option of `createAgent` that cannot take effect. */
export function assertAgentOptions(options: AgentOptions, planning: boolean): void {
  const { limits, plan, a2a } = options;
  const limit = (key: string) => Object.hasOwn(defaultBounds.limits, key) || key === 'approvalTtlMs';
  const a2aLimit = (key: string) => Object.hasOwn(defaultBounds.a2a, key);
  const problems = [
    ...unknownNames(options, (key) => Object.hasOwn(agentOptionNames, key), ''),
    ...[checkModelVersion(options.model)].filter((p): p is string => p !== undefined),
    ...(options.toolCalling !== undefined &&
    options.toolCalling !== 'native' &&
    options.toolCalling !== 'text'
      ? [`toolCalling must be 'native' or 'text', not ${JSON.stringify(options.toolCalling)}`]
      : []),
    ...unknownNames(limits, limit, 'limits.'),
    ...notCounts(limits, limit, 'limits.'),
    ...(options.execution !== undefined
      ? checkExecutionOptions(options.execution, 'execution', effectsOf(options, planning))
      : []),
    ...(plan && typeof plan === 'object' ? checkPlanOptions(plan) : []),
    ...(a2a?.limits !== undefined && a2a.agents.length === 0
      ? ['a2a.limits has no effect without a2a.agents']
      : []),
    ...unknownNames(a2a?.limits, a2aLimit, 'a2a.limits.'),
    ...notCounts(a2a?.limits, a2aLimit, 'a2a.limits.'),
    ...unknownNames(options.toolPipeline, (key) => toolPipelineNames.has(key), 'toolPipeline.'),
    ...checkLogger(options.logger),
    ...(options.random !== undefined && typeof options.random !== 'function'
      ? ['random must be a function returning numbers in [0, 1), as Math.random does']
      : []),
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
  const effects = effectsOf(options, planning);
  const problems = (['execution', 'threadExecution'] as const).flatMap((layer) =>
    given[layer] !== undefined ? checkExecutionOptions(given[layer], layer, effects) : [],
  );
  if (problems.length > 0)
    throw new ConfigurationError({ message: 'The execution settings cannot all take effect.', problems });
}

function effectsOf(options: AgentOptions, planning: boolean): ExecutionEffects {
  return { plans: planning, a2aAgents: (options.a2a?.agents.length ?? 0) > 0 };
}

/** Names in a bag that nothing reads, with the replacement of a removed one. */
function unknownNames(bag: object | undefined, known: (key: string) => boolean, prefix: string): string[] {
  return Object.keys(bag ?? {})
    .filter((key) => !known(key))
    .map((key) => replaced[`${prefix}${key}`] ?? `${prefix}${key} is not an option flowstack knows`);
}

/** Known bounds whose value is not a number ≥ 0. */
function notCounts(bag: object | undefined, known: (key: string) => boolean, prefix: string): string[] {
  return Object.entries(bag ?? {}).flatMap(([key, value]) =>
    !known(key) || value === undefined || (typeof value === 'number' && Number.isFinite(value) && value >= 0)
      ? []
      : [
          `${prefix}${key} must be a number ≥ 0 (got ${typeof value === 'number' ? value : JSON.stringify(value)})`,
        ],
  );
}

/** A logger that lacks one of the four levels would drop what the runtime writes at that level. */
function checkLogger(logger: unknown): string[] {
  if (logger === undefined) return [];
  if (typeof logger !== 'object' || logger === null)
    return ['logger must be an object such as pino() or createConsoleLogger()'];
  const missing = ['debug', 'info', 'warn', 'error'].filter(
    (level) => typeof (logger as Record<string, unknown>)[level] !== 'function',
  );
  return missing.length > 0
    ? [`logger has no ${missing.join(', ')} method (pino's interface is expected)`]
    : [];
}
