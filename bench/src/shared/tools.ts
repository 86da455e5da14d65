/**
 * The three small tools of every scenario, with Zod schemas. Each framework wraps the same bodies in
 * its own tool definition; `runTool` counts their time so it can be taken out of the per-step overhead.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { meter, now, sampleHeap } from './meter.js';

export const toolNames = ['add', 'upper', 'lookup'] as const;
export type ToolName = (typeof toolNames)[number];

const table: Record<string, string> = { alpha: 'first', beta: 'second', gamma: 'third' };

export const addInput = z.object({ a: z.number(), b: z.number() });
export const addOutput = z.object({ sum: z.number() });
export const upperInput = z.object({ text: z.string().max(200) });
export const upperOutput = z.object({ text: z.string() });
export const lookupInput = z.object({
  key: z.enum(['alpha', 'beta', 'gamma']),
  row: z.number().int().min(0),
});
export const lookupOutput = z.object({ value: z.string() });

export interface BenchTool<Input extends z.ZodObject, Output extends z.ZodObject> {
  name: ToolName;
  description: string;
  input: Input;
  output: Output;
  execute(input: z.infer<Input>): Promise<z.infer<Output>>;
}

function benchTool<Input extends z.ZodObject, Output extends z.ZodObject>(definition: {
  name: ToolName;
  description: string;
  input: Input;
  output: Output;
  compute(input: z.infer<Input>): z.infer<Output>;
}): BenchTool<Input, Output> {
  const { compute, ...rest } = definition;
  return { ...rest, execute: (input) => runTool(definition.name, () => compute(input)) };
}

export const addTool = benchTool({
  name: 'add',
  description: 'Adds two numbers.',
  input: addInput,
  output: addOutput,
  compute: (input) => ({ sum: input.a + input.b }),
});

export const upperTool = benchTool({
  name: 'upper',
  description: 'Upper-cases a short text.',
  input: upperInput,
  output: upperOutput,
  compute: (input) => ({ text: input.text.toUpperCase() }),
});

export const lookupTool = benchTool({
  name: 'lookup',
  description: 'Looks a key up in a small table.',
  input: lookupInput,
  output: lookupOutput,
  compute: (input) => ({ value: `${table[input.key] ?? 'none'}-${input.row}` }),
});

async function runTool<T>(name: ToolName, compute: () => T): Promise<T> {
  const start = now();
  const index = meter.toolCalls++;
  if (meter.sampling) sampleHeap();
  if (meter.beforeTool) await meter.beforeTool(name, index);
  if (meter.toolDelayMs > 0) await sleep(meter.toolDelayMs);
  const output = compute();
  const end = now();
  meter.toolMs += end - start;
  if (meter.recordSpans) meter.spans.push({ start, end });
  return output;
}
