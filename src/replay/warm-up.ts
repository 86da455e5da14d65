/**
 * A dry run of the turn loop, once per process and kind of store, before a worker takes real work
 * (docs/decisions/0032, 0090). A fresh process is slow at everything it does for the first time — its code
 * has not run yet and Zod has not built its parsers — so the first turn of a new worker, often a crashed
 * worker's turn that it takes over, would be several times slower than the next. The dry run sends a few
 * turns through an agent of its own on a store of its own, of the kind the worker's agent uses (a private
 * in-memory SQLite database for the SQLite store, so that its code runs too; a memory store otherwise): a
 * fast-path route, a skill run with tool calls through the whole safety pipeline,
 * the commits, a second turn that loads and decodes the thread, and the takeover of a turn whose commit
 * failed (the path a crashed worker's turn takes). That round is run several times, each on a thread of
 * its own: up to `maxRounds`, none begun once `budgetMs` has passed (docs/decisions/0041).
 * Nothing the user configured is called: its own flow, tool and model, its own store, a no-op tracer.
 */
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
} from '@ai-sdk/provider';
import type { Tracer } from '@opentelemetry/api';
import { z } from 'zod';
import { defineFlow } from '../flow/index.js';
import type { FastPathRule } from '../nlu/index.js';
import { openTelemetry } from '../observe/index.js';
import type { FlowSpec, StateStore, ThreadCommit } from '../spec/index.js';
import { createMemoryStore, createSqliteStore } from '../store/index.js';
import type { ToolDefinition } from '../tool/index.js';
import { defineTool } from '../tool/index.js';

/** What the dry run gives the agent it makes: its own model, flow, tool, store and a no-op tracer. */
export interface WarmUpAgentOptions {
  model: LanguageModelV3;
  flows: readonly FlowSpec[];
  tools: readonly ToolDefinition[];
  store: StateStore;
  rules: readonly FastPathRule[];
  telemetry: { tracer: Tracer };
}

/** What the dry run uses of that agent. */
export interface WarmUpAgent {
  send(options: { threadId: string; text: string; requestId?: string }): Promise<{ status: string }>;
  close(): Promise<void>;
}

/** What a worker's warm-up did (`agent.warmUp()`). */
export interface WarmUpReport {
  warmed: boolean;
  /** Rounds of the dry run begun (each: two turns, then two takeovers of a turn whose commit failed). */
  rounds: number;
  /** Turns sent, the failed ones included. */
  turns: number;
  /** Whether turns left behind by a failed commit were taken over (replayed, then closed). */
  tookOver: boolean;
  ms: number;
  /** The kind of store the dry run ran on: `sqlite` when the agent's store is the SQLite store. */
  store: DryRunStoreKind;
  /** How many of the agent's own tools had their schemas built (`prepareToolSchemas`). */
  tools: number;
  reason?: string;
}

/** The dry run's own store: a private in-memory SQLite database, or a memory store. */
export type DryRunStoreKind = 'sqlite' | 'memory';

const toolCallsPerTurn = 3;
/** Rounds after which a first takeover runs as fast as later ones (docs/decisions/0041). */
const maxRounds = 16;
/** No round is begun after this much of the dry run (at least one runs), so a slow machine starts in time. */
const budgetMs = 150;
const flowName = 'flowstack_warm_up';
const toolName = 'flowstack_warm_up_echo';
const request = 'flowstack warm-up';

type ProcessReport = Omit<WarmUpReport, 'tools'>;
const done = new Map<DryRunStoreKind, Promise<ProcessReport>>();

/** The dry run's kind of store for an agent's store: SQLite for the SQLite store, else memory. */
export function dryRunStoreKind(store: StateStore): DryRunStoreKind {
  return store.kind === 'sqlite' ? 'sqlite' : 'memory';
}

/**
 * Runs the dry run the first time it is called in the process for a kind of store; later calls get the
 * same report. `create` is `createAgent` (passed in, so this module does not import the module that
 * calls it).
 */
export function warmUpProcess(
  create: (options: WarmUpAgentOptions) => WarmUpAgent,
  kind: DryRunStoreKind,
): Promise<ProcessReport> {
  let report = done.get(kind);
  if (!report) {
    report = dryRun(create, kind);
    done.set(kind, report);
  }
  return report;
}

async function dryRun(
  create: (options: WarmUpAgentOptions) => WarmUpAgent,
  kind: DryRunStoreKind,
): Promise<ProcessReport> {
  const { ProxyTracerProvider } = openTelemetry();
  const start = performance.now();
  const store = failingOnce(
    kind === 'sqlite' ? createSqliteStore({ path: ':memory:' }) : createMemoryStore(),
  );
  const agent = create({
    model: warmUpModel(),
    flows: [
      defineFlow({
        name: flowName,
        intent: 'read',
        description: 'The dry run of a starting worker.',
        tools: [toolName],
        skill: `Call ${toolName} ${toolCallsPerTurn} times, then answer.`,
      }),
    ],
    tools: [
      defineTool({
        name: toolName,
        description: 'Echoes its text.',
        input: z.object({ text: z.string() }),
        output: z.object({ text: z.string() }),
        idempotent: true,
        execute: ({ text }) => ({ text }),
      }),
    ],
    store: store.store,
    rules: [{ pattern: /^flowstack warm-up$/, flow: flowName }],
    telemetry: { tracer: new ProxyTracerProvider().getTracer('flowstack-warm-up') },
  });
  let rounds = 0;
  let turns = 0;
  let tookOver = false;
  const report = (warmed: boolean, reason?: string): ProcessReport => ({
    warmed,
    rounds,
    turns,
    tookOver,
    ms: performance.now() - start,
    store: kind,
    ...(reason !== undefined ? { reason } : {}),
  });
  try {
    while (rounds < maxRounds && (rounds === 0 || performance.now() - start < budgetMs)) {
      rounds++;
      const failure = await dryRunRound(`warm-up-${rounds}`);
      if (failure !== undefined) return report(false, failure);
      tookOver = true;
    }
    return report(true);
  } catch (error) {
    return report(false, error instanceof Error ? error.message : String(error));
  } finally {
    await agent.close();
  }

  /** One round on a thread of its own; what went wrong, or `undefined`. */
  async function dryRunRound(threadId: string): Promise<string | undefined> {
    for (let i = 0; i < 2; i++) {
      turns++;
      const turn = await agent.send({ threadId, text: request });
      if (turn.status !== 'completed') return `turn ${turns} ended ${turn.status}`;
    }
    // A turn whose last commit fails, as if its process had died, leaves its in-flight record behind.
    // Sent again under its request id, it is replayed; a new message closes it first.
    for (const requestId of [`${threadId}-replayed`, undefined]) {
      const send = () => agent.send({ threadId, text: request, ...(requestId ? { requestId } : {}) });
      store.failNextResultCommit();
      turns++;
      const failed = await send().then(
        () => false,
        () => true,
      );
      if (!failed) return 'the commit meant to fail did not';
      turns++;
      const next = await send();
      if (next.status !== 'completed') return `turn ${turns} ended ${next.status}`;
    }
    return undefined;
  }
}

/** A memory store whose next commit that ends a turn (the in-flight record gone) fails, once, when armed. */
function failingOnce(inner: StateStore): { store: StateStore; failNextResultCommit(): void } {
  let armed = false;
  const store: StateStore = {
    ...inner,
    commit(commit: ThreadCommit) {
      if (armed && !hasInflightTurn(commit.data)) {
        armed = false;
        return Promise.reject(new Error('warm-up: the commit fails on purpose'));
      }
      return inner.commit(commit);
    },
  };
  return {
    store,
    failNextResultCommit: () => {
      armed = true;
    },
  };
}

function hasInflightTurn(data: string): boolean {
  const snapshot = JSON.parse(data) as { extensions?: Record<string, unknown> };
  return snapshot.extensions?.turn !== undefined;
}

/** Asks for the tool until the turn's run has three results, then answers. */
function warmUpModel(): LanguageModelV3 {
  let calls = 0;
  return {
    specificationVersion: 'v3',
    provider: 'flowstack-warm-up',
    modelId: 'dry-run',
    supportedUrls: {},
    async doGenerate(options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
      calls++;
      const labels = options.providerOptions?.flowstack as Record<string, unknown> | undefined;
      const results = labels?.phase === 'skill' ? toolResultsSinceLastUser(options) : toolCallsPerTurn;
      const content: LanguageModelV3Content[] =
        results < toolCallsPerTurn
          ? [
              {
                type: 'tool-call',
                toolCallId: `warm-up-${calls}`,
                toolName,
                input: JSON.stringify({ text: `step ${results + 1}` }),
              },
            ]
          : [{ type: 'text', text: 'Warm.' }];
      return {
        content,
        finishReason:
          content[0]?.type === 'tool-call'
            ? { unified: 'tool-calls', raw: 'tool_calls' }
            : { unified: 'stop', raw: 'stop' },
        usage: {
          inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: 5, text: 5, reasoning: 0 },
        },
        warnings: [],
      };
    },
    doStream() {
      return Promise.reject(new Error('The warm-up model does not stream.'));
    },
  };
}

function toolResultsSinceLastUser(options: LanguageModelV3CallOptions): number {
  let results = 0;
  for (const message of options.prompt) {
    if (message.role === 'user') results = 0;
    else if (message.role === 'tool') results += message.content.length;
  }
  return results;
}
