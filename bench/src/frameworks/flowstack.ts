/**
 * flowstack, imported from the repository's build (`../dist`, made by `npm run build` at the root) so
 * that it is measured as users run it. The agent routes the request with a fast-path rule (no model
 * call) to one flow whose skill offers the three tools; the model is `createScriptedModel` from
 * `flowstack/test` with one repeating step that answers from the conversation.
 */

import type { z } from 'zod';
import type { ToolBatchContext, ToolCallRequest } from '../../../dist/src/blocks.js';
import { createToolSet, executeToolBatch, systemClock } from '../../../dist/src/blocks.js';
import type { AgentOptions, StateStore } from '../../../dist/src/index.js';
import * as flowstackModule from '../../../dist/src/index.js';
import { createScriptedModel } from '../../../dist/src/test/index.js';
import { timeModel } from '../shared/meter.js';
import { isRequest, nextAction, parsePlan } from '../shared/plan.js';
import { addTool, type BenchTool, lookupTool, upperTool } from '../shared/tools.js';
import type { AgentSetup, BenchAgent, Framework } from './framework.js';

const { createAgent, createMemoryStore, createSqliteStore, defineFlow, defineTool } = flowstackModule;

type Model = AgentOptions['model'];
type ToolSchema = Parameters<typeof defineTool>[0]['input'];
type Prompt = Parameters<Model['doGenerate']>[0]['prompt'];

const flow = defineFlow({
  name: 'bench_steps',
  intent: 'read',
  description: 'Run the benchmark steps.',
  tools: ['add', 'upper', 'lookup'],
  skill: 'Call the tools the request asks for, one per step, then answer.',
});

function toFlowstackTool<I extends z.ZodObject, O extends z.ZodObject>(tool: BenchTool<I, O>) {
  return defineTool<unknown, unknown>({
    name: tool.name,
    description: tool.description,
    // The schemas are Zod objects from the bench's own copy of zod 4.6.7, the same version as flowstack's.
    input: tool.input as unknown as ToolSchema,
    output: tool.output as unknown as ToolSchema,
    idempotent: true,
    execute: (input) => tool.execute(input as z.infer<I>),
  });
}

function createTools() {
  return [toFlowstackTool(addTool), toFlowstackTool(upperTool), toFlowstackTool(lookupTool)];
}

/** The scripted model: one repeating step whose `respond` reads the plan and counts tool results. */
function createBenchModel() {
  const scripted = createScriptedModel({
    // Fixed token counts, as every peer's mock returns (the default estimates them from the prompt).
    defaultUsage: { inputTokens: 10, outputTokens: 5 },
    steps: [
      {
        match: { phase: 'skill' },
        repeat: true,
        respond: (options) => {
          const { request, done } = readPrompt(options.prompt);
          const action = nextAction(parsePlan(request), done);
          if (action.kind === 'answer') return { text: action.text };
          return {
            toolCalls: action.calls.map((c) => ({ toolName: c.toolName, input: c.input, callId: c.callId })),
          };
        },
      },
    ],
  });
  const model: Model = {
    specificationVersion: 'v3',
    provider: scripted.provider,
    modelId: scripted.modelId,
    supportedUrls: scripted.supportedUrls,
    // Timed as the peers' mocks are (`timeModel`), with no await of its own: the scripted model's
    // `doGenerate` does all its work before it returns its promise, so the time is the same, and the model
    // call passes through one async layer of the mock's, as in the peers' mocks.
    doGenerate: (options) => timeModel(() => scripted.doGenerate(options)),
    doStream: (options) => scripted.doStream(options),
  };
  return { model, clearLog: () => void scripted.calls.splice(0) };
}

function readPrompt(prompt: Prompt): { request: string; done: number } {
  let request = '';
  let done = 0;
  for (const message of prompt) {
    if (message.role === 'user') {
      // The runtime may add user messages of its own (reflections); the request is the last plan.
      const text = message.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
      if (isRequest(text)) {
        request = text;
        done = 0;
      }
    } else if (message.role === 'tool') {
      done += message.content.filter((p) => p.type === 'tool-result').length;
    }
  }
  return { request, done };
}

async function createStore(setup: AgentSetup): Promise<StateStore> {
  switch (setup.persistence) {
    case 'none':
      return createMemoryStore();
    case 'sqlite':
      return createSqliteStore({ path: required(setup.sqlitePath) });
    case 'sqlite-full':
      return createSqliteStore({ path: required(setup.sqlitePath), synchronous: 'full' });
    case 'postgres': {
      const postgres = await loadPostgresAdapter();
      if (!postgres)
        throw new Error('flowstack has no PostgreSQL store in this build (dist/src/adapters/postgres).');
      const store = postgres.createPostgresStore({
        connectionString: required(setup.postgresUrl),
        schema: setup.postgresSchema ?? 'flowstack_bench',
      });
      await store.ready?.();
      return store;
    }
  }
}

interface PostgresAdapter {
  createPostgresStore(options: {
    connectionString: string;
    schema: string;
  }): StateStore & { ready?(): Promise<void> };
}

/** The PostgreSQL store is optional: a build without it skips the Postgres rows. */
export async function loadPostgresAdapter(): Promise<PostgresAdapter | undefined> {
  const url = new URL('../../../dist/src/adapters/postgres/index.js', import.meta.url);
  try {
    const loaded = (await import(url.href)) as Partial<PostgresAdapter>;
    return typeof loaded.createPostgresStore === 'function' ? (loaded as PostgresAdapter) : undefined;
  } catch {
    return undefined;
  }
}

function required(value: string | undefined): string {
  if (value === undefined) throw new Error('Missing a database location.');
  return value;
}

async function createBenchAgent(setup: AgentSetup): Promise<BenchAgent> {
  const store = await createStore(setup);
  const { model, clearLog } = createBenchModel();
  const agent = createAgent({
    model,
    flows: [flow],
    tools: createTools(),
    store,
    rules: [{ pattern: /^(chain|parallel) \d+$/, flow: 'bench_steps' }],
    ...(setup.leaseTtlMs !== undefined ? { limits: { leaseTtlMs: setup.leaseTtlMs } } : {}),
    // A skill run stops at 30 model calls and asks whether to go on every 20 by default; a session of
    // K steps needs K + 1 calls in one run, with nobody to ask. Every check still runs at every step.
    execution: { maxIterations: setup.maxSteps, maxTurns: setup.maxSteps + 1, confirmEveryTurns: 0 },
  });
  // What a worker does when it starts (`flowstack serve` and `flowstack worker` do it): a dry run of the
  // turn loop on a memory store of its own, once per process (docs/decisions/0032).
  const warmUp = await agent.warmUp();
  if (!warmUp.warmed) throw new Error(`flowstack's warm-up did not finish: ${warmUp.reason}`);
  const send = async (threadId: string, text: string, requestId?: string) => {
    const turn = await agent.send({ threadId, text, ...(requestId !== undefined ? { requestId } : {}) });
    if (turn.status !== 'completed') throw new Error(`flowstack turn ended ${turn.status}: ${turn.reply}`);
    return turn.reply;
  };
  // With no persistence asked for, a session leaves nothing behind, as the peers' runs leave nothing: the
  // memory store would otherwise keep every finished thread in the heap (bench/README.md, "Sessions leave
  // nothing behind"). The deletion is timed with the session.
  const runOnce = async (threadId: string, text: string) => {
    const reply = await send(threadId, text);
    await agent.deleteThread({ threadId });
    return reply;
  };
  return {
    run: setup.persistence === 'none' ? runOnce : send,
    // A crashed request is delivered again under its request id: the interrupted turn is run again under its
    // turn id, its journaled model answers replayed and its completed calls taken from the journal
    // (docs/decisions/0017); the call that was cut off, idempotent here, runs again.
    resume: send,
    clearMockLog: clearLog,
    describePersistence: async () => {
      switch (setup.persistence) {
        case 'none':
          return 'memory store (journal in memory)';
        case 'sqlite':
          return 'SQLite file, WAL, synchronous=NORMAL (store default); journal row per tool call, one commit per turn';
        case 'sqlite-full':
          return 'SQLite file, WAL, synchronous=FULL; journal row per tool call, one commit per turn';
        case 'postgres':
          return 'PostgreSQL (createPostgresStore); journal row per tool call, one commit per turn';
      }
    },
    close: () => agent.close(),
  };
}

/**
 * Prepares a batch runner below the agent: each call runs `calls` through `executeToolBatch` as one
 * batch, all in one `parallelGroup` when `parallel` is set. For the parallel-tools scenario.
 */
export function createToolBatchRunner(
  calls: readonly ToolCallRequest[],
  parallel: boolean,
): () => Promise<void> {
  const store = createMemoryStore();
  const redact = flowstackModule as unknown as {
    redactSecrets(text: string): string;
    redactValue?(value: unknown): unknown;
  };
  const tools = createToolSet(createTools());
  const requests = calls.map((c) => (parallel ? { ...c, parallelGroup: 'g1' } : c));
  let batch = 0;
  return async () => {
    const context: ToolBatchContext = {
      tools,
      threadId: 'batch',
      turnId: `turn-${batch++}`,
      clock: systemClock,
      store,
      maxContextChars: 1_500,
      redact: {
        text: (t) => redact.redactSecrets(t),
        value: (v) => (redact.redactValue ? redact.redactValue(v) : v),
      },
    };
    const results = await executeToolBatch(requests, context);
    const failed = results.find((r) => r.status !== 'success');
    if (failed) throw new Error(`executeToolBatch: ${failed.contextText}`);
  };
}

export const flowstack: Framework = {
  id: 'flowstack',
  label: 'flowstack',
  packages: [],
  persistence: ['none', 'sqlite', 'sqlite-full', 'postgres'],
  createAgent: createBenchAgent,
};
