import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigurationError } from '../errors/index.js';
import { defineFlow } from '../flow/index.js';
import { createMemoryStore } from '../store/index.js';
import { createScriptedModel } from '../test/index.js';
import { defineTool } from '../tool/index.js';
import type { AgentOptions } from './agent-types.js';
import { createAgent } from './create-agent.js';

const countFlow = defineFlow({
  name: 'count_up',
  intent: 'read',
  description: 'Count up three times.',
  tools: ['count'],
  skill: 'Call count three times, then finish.',
});

function setup(options: Partial<AgentOptions> = {}) {
  const counted: number[] = [];
  const count = defineTool({
    name: 'count',
    description: 'Counts one up.',
    input: z.object({ n: z.number() }),
    idempotent: true,
    execute: ({ n }) => {
      counted.push(n);
      return { n };
    },
  });
  const model = createScriptedModel({
    steps: [
      { match: { phase: 'predict' }, json: { flow: 'count_up', slots: {} } },
      ...[1, 2, 3].map((n) => ({
        match: { phase: 'skill' as const },
        toolCalls: [{ toolName: 'count', input: { n } }],
      })),
      {
        match: { phase: 'skill' },
        toolCalls: [
          { toolName: 'finish_skill', input: { outcome: 'success', data: { text: 'Counted to 3.' } } },
        ],
      },
    ],
  });
  const agent = createAgent({
    model,
    flows: [countFlow],
    tools: [count],
    store: createMemoryStore(),
    toolPipeline: { simulate: undefined },
    limits: { maxSkillIterations: 10 },
    ...options,
  });
  return { agent, counted };
}

describe('createAgent({ skillLoop }): the skill loop’s bounds for every run of the agent', () => {
  it('runs with the defaults, and asks whether to go on every N turns when the agent says so', async () => {
    const plain = setup();
    const done = await plain.agent.send({ threadId: 't', text: 'count please' });
    expect(done.reply).toBe('Counted to 3.');

    const asking = setup({ skillLoop: { confirmEveryTurns: 2 } });
    const paused = await asking.agent.send({ threadId: 't', text: 'count please' });
    expect(paused.status).toBe('suspended');
    expect(asking.counted).toEqual([1, 2]);
    expect(paused.suspensions?.map((s) => s.kind)).toEqual(['continue']);
  });

  it('refuses unknown bounds and values that are not numbers ≥ 0, with every problem listed', () => {
    const error = (() => {
      try {
        setup({ skillLoop: { maxTurns: -1, confirmEvery: 2 } as never });
      } catch (caught) {
        return caught;
      }
    })();
    expect(ConfigurationError.isInstance(error)).toBe(true);
    expect((error as ConfigurationError).problems).toEqual([
      'skillLoop.maxTurns must be a number ≥ 0 (got -1)',
      'skillLoop.confirmEvery is not a bound of the skill loop',
    ]);
  });
});
