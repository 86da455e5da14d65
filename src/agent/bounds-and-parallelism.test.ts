// Issue 32 item 8, through createAgent: a run that hits a bound names the option that raises it, and one
// step's tool calls run side by side unless a tool declares it must run alone (`parallel: false`).
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineFlow } from '../flow/index.js';
import { createMemoryStore } from '../store/index.js';
import { createScriptedModel, type ScriptStep } from '../test/index.js';
import { defineTool, type ToolDefinition } from '../tool/index.js';
import { createSequentialIdGenerator } from '../util/index.js';
import { createAgent } from './create-agent.js';
import type { AgentOptions } from './index.js';

const chores = defineFlow({
  name: 'chores',
  intent: 'transform',
  description: 'Do the chores.',
  slots: [],
  tools: ['sweep', 'dust', 'mop'],
  skill: 'Do every chore.',
});

const countUp = defineFlow({
  name: 'count_up',
  intent: 'transform',
  description: 'Count to ten, one call at a time.',
  slots: [],
  tools: ['count'],
  skill: 'Count to ten with the count tool.',
});

/** Spans of tool runs on the wall clock, to see which ran beside which. */
interface Span {
  name: string;
  start: number;
  end: number;
}

function choreTool(name: string, spans: Span[], extra: { parallel?: boolean } = {}): ToolDefinition {
  return defineTool({
    name,
    description: `Does the ${name} chore (takes 50 ms).`,
    input: z.object({}),
    ...extra,
    execute: async () => {
      const start = performance.now();
      await new Promise((resolve) => setTimeout(resolve, 50));
      spans.push({ name, start, end: performance.now() });
      return { done: name };
    },
  }) as ToolDefinition;
}

function setup(steps: ScriptStep[], tools: ToolDefinition[], extra: Partial<AgentOptions> = {}) {
  const model = createScriptedModel({ steps });
  const agent = createAgent({
    model,
    flows: [chores, countUp],
    tools,
    rules: [
      { pattern: /^chores$/i, flow: 'chores' },
      { pattern: /^count$/i, flow: 'count_up' },
    ],
    store: createMemoryStore(),
    ids: createSequentialIdGenerator(),
    ...extra,
  });
  return { agent, model };
}

const allThree: ScriptStep = {
  match: { phase: 'skill', prompt: (call) => !call.prompt.some((m) => m.role === 'tool') },
  toolCalls: [
    { toolName: 'sweep', input: {} },
    { toolName: 'dust', input: {} },
    { toolName: 'mop', input: {} },
  ],
};
const done: ScriptStep = { match: { phase: 'skill' }, text: 'All chores done.' };

describe('parallelism is its own declaration', () => {
  it('three independent 50 ms tools of one step run side by side by default (well under 150 ms)', async () => {
    const spans: Span[] = [];
    const tools = ['sweep', 'dust', 'mop', 'count'].map((name) => choreTool(name, spans));
    expect(tools.map((t) => [t.idempotent, t.parallel])).toEqual([
      [false, true],
      [false, true],
      [false, true],
      [false, true],
    ]);
    const { agent } = setup([allThree, done], tools);
    const turn = await agent.send({ threadId: 'p1', text: 'chores' });
    expect(turn.reply).toBe('All chores done.');
    expect(spans).toHaveLength(3);
    const elapsed = Math.max(...spans.map((s) => s.end)) - Math.min(...spans.map((s) => s.start));
    expect(elapsed).toBeLessThan(110);
  });

  it('a tool declared `parallel: false` runs alone: nothing runs beside it', async () => {
    const spans: Span[] = [];
    const tools = [
      choreTool('sweep', spans),
      choreTool('dust', spans, { parallel: false }),
      choreTool('mop', spans),
      choreTool('count', spans),
    ];
    const { agent } = setup([allThree, done], tools);
    await agent.send({ threadId: 'p2', text: 'chores' });
    const dust = spans.find((s) => s.name === 'dust') as Span;
    const others = spans.filter((s) => s.name !== 'dust');
    expect(others).toHaveLength(2);
    for (const other of others) expect(other.end <= dust.start || other.start >= dust.end).toBe(true);
  });
});

describe('a run that hits a bound says which option raises it', () => {
  const countTool = defineTool({
    name: 'count',
    description: 'Counts one more.',
    input: z.object({ n: z.number() }),
    execute: ({ n }) => ({ counted: n }),
  }) as ToolDefinition;
  /** A task of ten tool calls, one per step, then the answer. */
  const tenCalls: ScriptStep = {
    match: { phase: 'skill' },
    repeat: true,
    respond: (call) => {
      const results = call.prompt.filter((m) => m.role === 'tool').length;
      return results < 10
        ? { toolCalls: [{ toolName: 'count', input: { n: results + 1 } }] }
        : { text: 'Counted to ten.' };
    },
  };

  it('with the defaults, a ten-call task fails naming `execution.maxIterations`; raising it lets it finish', async () => {
    const tools = [...['sweep', 'dust', 'mop'].map((name) => choreTool(name, [])), countTool];
    const bounded = setup([tenCalls], tools);
    const failed = await bounded.agent.send({ threadId: 'b1', text: 'count' });
    expect(failed.status).toBe('failed');
    expect(failed.reply).toContain('did not finish within 5 model calls');
    expect(failed.reply).toContain('raise `execution.maxIterations` (now 5)');

    const raised = setup([tenCalls], tools, { execution: { maxIterations: 12 } });
    const turn = await raised.agent.send({ threadId: 'b2', text: 'count' });
    expect(turn.reply).toBe('Counted to ten.');
  });

  it('the every-N-calls question says which option sets N', async () => {
    const tools = [...['sweep', 'dust', 'mop'].map((name) => choreTool(name, [])), countTool];
    const { agent } = setup([tenCalls], tools, {
      execution: { maxIterations: 12, confirmEveryTurns: 4 },
    });
    const turn = await agent.send({ threadId: 'b3', text: 'count' });
    expect(turn.status).toBe('suspended');
    expect(turn.reply).toContain('`execution.confirmEveryTurns`');
  });
});
