/**
 * The tool and the batch of the pipeline micro-benchmark, through flowstack's public API as built in
 * `../dist`. The tool does no work (it answers at once), so what is timed is the pipeline around it:
 * resolve, parse, validate input, replay check, audit, gates, rate limit, journal, redact, validate
 * output, retry and timeout wrappers, result shaping.
 */
import { z } from 'zod';
import type { ToolBatchContext, ToolCallRequest, ToolPipeline } from '../../../dist/src/blocks.js';
import * as blocks from '../../../dist/src/blocks.js';
import * as root from '../../../dist/src/index.js';

const flowstack = { ...root, ...blocks };

import type { PipelineToolKind } from './micro-jobs.js';

const { createMemoryRateLimiter, createMemoryStore, createToolSet, defineTool, redactSecrets, redactValue } =
  flowstack;

type ToolSchema = Parameters<typeof defineTool>[0]['input'];

const table: Record<string, string> = { alpha: 'first', beta: 'second', gamma: 'third' };
const input = z.object({ key: z.enum(['alpha', 'beta', 'gamma']), row: z.number().int().min(0) });
const output = z.object({ value: z.string() });

/** A 0 ms tool: it answers at once, in a resolved promise, as an async tool does. */
function createLookupTool(kind: PipelineToolKind) {
  const controlled = kind === 'controlled';
  return defineTool<unknown, unknown>({
    name: 'lookup',
    description: 'Looks a key up in a small table.',
    // The bench's own zod 4.6.7, the same version as flowstack's (as in frameworks/flowstack.ts).
    input: input as unknown as ToolSchema,
    output: output as unknown as ToolSchema,
    idempotent: !controlled,
    capability: controlled ? 'controlled' : 'safe',
    execute: async (value) => {
      const { key, row } = value as z.infer<typeof input>;
      return { value: `${table[key] ?? 'none'}-${row}` };
    },
  });
}

export interface PipelineRunner {
  /** Runs one batch; throws unless every call succeeded. */
  runBatch(): Promise<void>;
  /** Journal and audit rows the store holds: a check that the variant does what it says. */
  countRows(): Promise<{ journal: number; audit: number }>;
}

/**
 * One batch of `calls` calls to the tool, all in one `parallelGroup` when there are several. Each
 * batch is a new turn, so every call has a new idempotency key and really runs (nothing is replayed).
 */
export function createPipelineRunner(options: {
  tool: PipelineToolKind;
  calls: number;
  pipeline?: ToolPipeline;
}): PipelineRunner {
  const tools = createToolSet([createLookupTool(options.tool)]);
  const store = options.tool === 'safe-no-store' ? undefined : createMemoryStore();
  const requests: ToolCallRequest[] = Array.from({ length: options.calls }, (_, i) => ({
    callId: `c${i}`,
    toolName: 'lookup',
    input: JSON.stringify({ key: 'beta', row: i }),
    ...(options.calls > 1 ? { parallelGroup: 'g1' } : {}),
  }));
  // The level limit of `controlled` tools (100 calls an hour by default) would stop the benchmark; it is
  // raised, not lifted, so that the limiter still counts every call.
  const rateLimiter = createMemoryRateLimiter();
  const rateLimits = { controlled: { limit: 1_000_000_000, windowMs: 3_600_000 } };
  const redact = { text: redactSecrets, value: (v: unknown) => redactValue(v) };
  const executeOptions = options.pipeline ? { pipeline: options.pipeline } : {};
  let turn = 0;
  return {
    async runBatch() {
      const context: ToolBatchContext = {
        tools,
        threadId: 'micro',
        turnId: `turn-${turn++}`,
        clock: flowstack.systemClock,
        maxContextChars: 1_500,
        redact,
        rateLimiter,
        rateLimits,
        ...(store ? { store } : {}),
      };
      const results = await flowstack.executeToolBatch(requests, context, executeOptions);
      for (const result of results) {
        if (result.status !== 'success') throw new Error(`executeToolBatch: ${result.contextText}`);
      }
    },
    async countRows() {
      if (!store) return { journal: 0, audit: 0 };
      const journal = await store.listJournal('micro');
      const audit = await store.readAudit({ threadId: 'micro' });
      return {
        journal: journal.filter((e) => e.status === 'succeeded').length,
        audit: audit.filter((r) => r.status === 'succeeded').length,
      };
    },
  };
}
