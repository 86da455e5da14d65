/**
 * An agent's options made into one frozen configuration: every default filled in from its table, every
 * option checked once at start-up (a value that cannot take effect is a `ConfigurationError`), and the
 * services a turn uses (store, observation bus, thread lease, tool pipeline) made once per agent.
 */

import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { DelegationContext } from '../a2a/index.js';
import { createA2AClientPool, createDelegateToAgentTool, defaultA2ADelegationLimits } from '../a2a/index.js';
import { createFileSnapshotService, type FileSnapshotService } from '../consistency/index.js';
import { ConfigurationError } from '../errors/index.js';
import { type FlowDefinition, toFlowDefinition, validateDomain } from '../flow/index.js';
import { toRuntimeModel } from '../model/index.js';
import {
  createObservationBus,
  createRedactingLogger,
  defaultLogger,
  type ObservationBus,
} from '../observe/index.js';
import { defaultPlanOptions, type PlanOptions, planFlow, resolveExecutionConfig } from '../plan/index.js';
import { redactSecrets, redactValue, type SecretSealer } from '../redact/index.js';
import { defaultBounds, type ExecutionConfig, type Logger, type StateStore } from '../spec/index.js';
import { createSqliteStore, resolveSecretSealer } from '../store/index.js';
import {
  checkAgentTools,
  createMemoryRateLimiter,
  createMemorySimulationCache,
  createModelSimulator,
  type ToolBatchContext,
  type ToolSet,
} from '../tool/index.js';
import type { AgentLimits } from '../turn/index.js';
import { createLiveTurns, createThreadLease, type LiveTurns } from '../turn/index.js';
import {
  type Clock,
  type IdGenerator,
  type RandomSource,
  randomIdGenerator,
  type StopSource,
  systemClock,
} from '../util/index.js';
import type { AgentOptions } from './agent-options.js';
import { createAgentToolSets } from './agent-tool-sets.js';
import { assertAgentOptions } from './check-agent-options.js';

const defaultPersona =
  'You are a careful assistant. Use the tools you are given; never invent their results.';

/** What every turn of one agent runs with; made once by `createAgent`. */
export interface AgentConfig {
  readonly options: AgentOptions;
  /** The agent's model, its version checked (v3 or v4), as the runtime calls it. */
  readonly model: LanguageModelV3;
  readonly store: StateStore;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** Draws the jitter of retry waits; `undefined` is `Math.random`. */
  readonly random: RandomSource | undefined;
  /** The agent's logger (the option's, else the default one) behind its redaction. */
  readonly logger: Required<Logger>;
  readonly limits: AgentLimits;
  /** The agent's execution settings resolved over the defaults: what a turn runs with unless its thread or call says otherwise. */
  readonly execution: ExecutionConfig;
  readonly redact: { text(text: string): string; value(value: unknown): unknown };
  /** Seals the arguments of calls held for later, at rest (docs/decisions/0078). */
  readonly sealer: SecretSealer;
  readonly persona: string;
  readonly flows: ReadonlyMap<string, FlowDefinition>;
  /**
   * The agent's tools (and `delegate_to_agent` when A2A agents are configured), as its tool sources
   * offer them now: read when a turn opens.
   */
  readonly tools: ToolSet;
  /** The tools plan items may use: the agent's and `update_plan`. Read when a turn opens. */
  readonly planTools: ToolSet;
  /** Plan settings when plans are on (`plan` option, or a domain flow with intent `plan`). */
  readonly plan: PlanOptions | undefined;
  readonly delegation: DelegationContext | undefined;
  readonly bus: ObservationBus;
  /** This agent's name as a lease holder. */
  readonly owner: string;
  readonly holdLease: <T>(threadId: string, work: (lease: StopSource) => Promise<T>) => Promise<T>;
  readonly files: FileSnapshotService;
  /** The turns this agent runs now, so that a stop said while one runs reaches it. */
  readonly liveTurns: LiveTurns;
  /** The agent-wide part of every tool batch: the pipeline's services and policies. */
  readonly toolPipeline: Partial<ToolBatchContext> & Pick<ToolBatchContext, 'files'>;
}

export function resolveAgentConfig(options: AgentOptions): AgentConfig {
  checkFlows(options);
  // Plans (docs/decisions/0010-plans.md): on with `plan`, or when the domain has its own Plan flow.
  const ownPlanFlow = options.flows.some((f) => f.intent === 'plan');
  const planning = options.plan === undefined ? ownPlanFlow : options.plan !== false;
  assertAgentOptions(options, planning);
  const model = toRuntimeModel(options.model);
  const store = options.store ?? createSqliteStore();
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? randomIdGenerator;
  const limits = { ...defaultBounds.limits, ...options.limits };
  const redact = options.redact ?? { text: redactSecrets, value: redactValue };
  const logger = createRedactingLogger({ logger: options.logger ?? defaultLogger, redact });
  const flows = new Map<string, FlowDefinition>(options.flows.map((f) => [f.name, toFlowDefinition(f)]));
  if (planning && !ownPlanFlow) flows.set(planFlow.name, toFlowDefinition(planFlow));
  const delegation =
    options.a2a && options.a2a.agents.length > 0
      ? {
          pool: createA2AClientPool(options.a2a.agents),
          store,
          clock,
          limits: { ...defaultA2ADelegationLimits, ...options.a2a.limits },
        }
      : undefined;
  // A tool of another library is refused here, saying which adapter to use, not on the first turn.
  checkAgentTools(options.tools ?? []);
  const toolSets = createAgentToolSets({
    given: options.tools ?? [],
    added: delegation ? [createDelegateToAgentTool(delegation)] : [],
    planning,
  });
  const owner = ids('agent');
  const files = createFileSnapshotService(options.files);
  return Object.freeze({
    options,
    model,
    store,
    clock,
    ids,
    random: options.random,
    logger,
    limits,
    execution: resolveExecutionConfig({ agent: options.execution }),
    redact,
    sealer: resolveSecretSealer(store),
    persona: options.persona ?? defaultPersona,
    flows,
    // Getters: an MCP server's changed tool list reaches the next turn (docs/decisions/0086).
    get tools() {
      return toolSets.current().tools;
    },
    get planTools() {
      return toolSets.current().planTools;
    },
    plan: planning
      ? { ...defaultPlanOptions, ...(typeof options.plan === 'object' ? options.plan : {}) }
      : undefined,
    delegation,
    bus: createObservationBus({
      onListenerError: (error, observation) =>
        logger.warn(
          { threadId: observation.threadId, observation: observation.type, err: error },
          'An observation listener threw; the other listeners were still told.',
        ),
    }),
    owner,
    holdLease: createThreadLease({ store, owner, clock, ttlMs: limits.leaseTtlMs, logger }),
    files,
    liveTurns: createLiveTurns(),
    toolPipeline: {
      files,
      logger,
      ...(options.random ? { random: options.random } : {}),
      rateLimiter: createMemoryRateLimiter({ clock }),
      resultCache: createMemorySimulationCache({ clock }),
      simulate: createModelSimulator({
        model,
        cache: createMemorySimulationCache({ clock }),
        redact: redact.text,
      }),
      ...options.toolPipeline,
    },
  });
}

/** Flows are checked together at start-up; whether their tools exist is the pre-hook's check 5. */
function checkFlows(options: AgentOptions): void {
  const problems = validateDomain({
    name: 'agent',
    flows: options.flows,
    ...(options.intents ? { intents: options.intents } : {}),
  });
  if (problems.length > 0)
    throw new ConfigurationError({ message: "The agent's flows are invalid.", problems });
}
