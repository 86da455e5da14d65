/**
 * A dry run of the turn loop, once per process, before a worker takes real work (docs/decisions/0032).
 * A fresh process runs every function for the first time: V8 compiles it lazily, runs it in the
 * interpreter, and Zod builds its parsers, which makes the first turn of a new worker — often a turn
 * of a crashed worker that it takes over — several times slower than the next. The dry run sends a
 * few turns through an agent of its own on a memory store: a fast-path route, a skill run with tool
 * calls through the whole safety pipeline, the commits, a second turn that loads and decodes the
 * thread, and the takeover of a turn whose commit failed (the path a crashed worker's turn takes).
 * Nothing the user configured is called: its own flow, tool and model, its own store, a no-op tracer.
 */
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
} from '@ai-sdk/provider';
import { ProxyTracerProvider } from '@opentelemetry/api';
import { z } from 'zod';
import { defineFlow } from '../flow/index.js';
import type { StateStore, ThreadCommit } from '../spec/index.js';
import { createMemoryStore } from '../store/index.js';
import { defineTool } from '../tool/index.js';
import type { Agent, AgentOptions } from './agent-types.js';

/** What the dry run did; `warmed: false` says why it stopped (a defect to report, never the user's). */
export interface WarmUpReport {
  warmed: boolean;
  /** Turns sent, the failed one included. */
  turns: number;
  /** Whether turns left behind by a failed commit were taken over (replayed, then closed). */
  tookOver: boolean;
  ms: number;
  reason?: string;
}

const toolCallsPerTurn = 3;
const flowName = 'flowstack_warm_up';
const toolName = 'flowstack_warm_up_echo';
const request = 'flowstack warm-up';

let done: Promise<WarmUpReport> | undefined;

/**
 * Runs the dry run the first time it is called in the process; later calls get the same report.
 * `create` is `createAgent` (passed in, so this module does not import the module that calls it).
 */
export function warmUpProcess(create: (options: AgentOptions) => Agent): Promise<WarmUpReport> {
  done ??= dryRun(create);
  return done;
}

async function dryRun(create: (options: AgentOptions) => Agent): Promise<WarmUpReport> {
  const start = performance.now();
  const store = failingOnce(createMemoryStore());
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
  let turns = 0;
  let tookOver = false;
  const report = (warmed: boolean, reason?: string): WarmUpReport => ({
    warmed,
    turns,
    tookOver,
    ms: performance.now() - start,
    ...(reason !== undefined ? { reason } : {}),
  });
  try {
    const threadId = 'warm-up';
    for (let i = 0; i < 2; i++) {
      turns++;
      const turn = await agent.send({ threadId, text: request });
      if (turn.status !== 'completed') return report(false, `turn ${turns} ended ${turn.status}`);
    }
    // A turn whose last commit fails, as if its process had died, leaves its in-flight record behind.
    // Sent again under its request id, it is replayed; a new message closes it first.
    for (const requestId of ['warm-up-replayed', undefined]) {
      const send = () => agent.send({ threadId, text: request, ...(requestId ? { requestId } : {}) });
      store.failNextResultCommit();
      turns++;
      const failed = await send().then(
        () => false,
        () => true,
      );
      if (!failed) return report(false, 'the commit meant to fail did not');
      turns++;
      const next = await send();
      if (next.status !== 'completed') return report(false, `turn ${turns} ended ${next.status}`);
    }
    tookOver = true;
    return report(true);
  } catch (error) {
    return report(false, error instanceof Error ? error.message : String(error));
  } finally {
    await agent.close();
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
