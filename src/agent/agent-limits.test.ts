/**
 * One test per bound of a turn (`createAgent({ limits })`, DESIGN.md invariant 9): the same scenario, once
 * with the defaults and once with the bound set, observably differs. The cases are a `Record` over the
 * bounds, so a bound added to the table without a test here does not compile.
 */
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineFlow } from '../flow/index.js';
import { defaultAgentLimits } from '../options/index.js';
import type { StateStore } from '../spec/index.js';
import { createMemoryStore } from '../store/index.js';
import { createScriptedModel, type ScriptStep } from '../test/index.js';
import { defineTool } from '../tool/index.js';
import type { Clock } from '../util/index.js';
import { createAgent } from './create-agent.js';
import { flowInstance, seedStack } from './fixtures/test-domain.js';
import type { AgentLimits, AgentOptions } from './index.js';

const start = 1_000_000;
const standing = (now: number): Clock => ({ now: () => now, sleep: () => new Promise(() => {}) });

const flows = [
  defineFlow({ name: 'say', intent: 'read', description: 'Say something.', tools: ['fetch_page'] }),
  defineFlow({ name: 'fetch', intent: 'read', description: 'Fetch a page.', tools: ['fetch_page'] }),
  defineFlow({ name: 'pay', intent: 'transform', description: 'Pay a bill.', tools: ['transfer'] }),
  defineFlow({
    name: 'kick',
    intent: 'read',
    description: 'Start work in the background.',
    tools: ['fetch_page'],
    hooks: { afterComplete: () => ({ schedule: [{ flow: 'behind_one' }, { flow: 'behind_two' }] }) },
  }),
  defineFlow({ name: 'behind_one', intent: 'internal', description: 'Work behind.', tools: ['fetch_page'] }),
  defineFlow({ name: 'behind_two', intent: 'internal', description: 'Work behind.', tools: ['fetch_page'] }),
];

const finish = (flow: string): ScriptStep => ({
  match: { phase: 'skill', flow },
  toolCalls: [{ toolName: 'finish_skill', input: { outcome: 'success', data: { text: `${flow} done.` } } }],
  repeat: true,
});
const firstStep = (call: { prompt: readonly { role: string }[] }) =>
  !call.prompt.some((m) => m.role === 'tool');

const steps: ScriptStep[] = [
  { match: { phase: 'predict' }, json: { flow: 'plan', slots: {} }, repeat: true },
  {
    match: { phase: 'plan' },
    json: {
      title: 'Two things',
      items: [
        { id: 'a', description: 'Say one thing', flow: 'say' },
        { id: 'b', description: 'Say another', flow: 'say' },
      ],
    },
    repeat: true,
  },
  { match: { phase: 'replan' }, json: { decision: 'continue' }, repeat: true },
  { match: { phase: 'plan-review' }, json: { decision: 'finish' }, repeat: true },
  { match: { phase: 'synthesize' }, json: { content: 'Both said.' }, repeat: true },
  {
    match: { phase: 'skill', flow: 'fetch', prompt: (call) => firstStep(call) },
    toolCalls: [{ toolName: 'fetch_page', input: { url: 'https://example.com' } }],
    repeat: true,
  },
  {
    match: { phase: 'skill', flow: 'pay' },
    toolCalls: [{ toolName: 'transfer', input: { to: 'ana', amount: 10 }, callId: 'pay-ana' }],
    repeat: true,
  },
  ...['say', 'fetch', 'kick', 'behind_one', 'behind_two'].map(finish),
];

function setup(
  limits: Partial<AgentLimits>,
  extra: Partial<AgentOptions> & { onFetch?: () => unknown } = {},
) {
  const { onFetch, ...options } = extra;
  const fetched: unknown[] = [];
  const fetchPage = defineTool({
    name: 'fetch_page',
    description: 'Fetches a page.',
    input: z.object({ url: z.string() }),
    idempotent: true,
    execute: async () => {
      fetched.push(await onFetch?.());
      return { text: 'x'.repeat(1_200) };
    },
  });
  const transfer = defineTool({
    name: 'transfer',
    description: 'Transfers money.',
    input: z.object({ to: z.string(), amount: z.number() }),
    capability: 'restricted',
    execute: () => ({ ok: true }),
  });
  const model = createScriptedModel({ steps });
  const store = options.store ?? createMemoryStore();
  const agent = createAgent({
    model,
    flows,
    tools: [fetchPage, transfer],
    store,
    clock: standing(start),
    rules: [
      { pattern: /^say /, flow: 'say' },
      { pattern: /^fetch$/, flow: 'fetch' },
      { pattern: /^pay$/, flow: 'pay' },
      { pattern: /^kick$/, flow: 'kick' },
    ],
    toolPipeline: { simulate: undefined, capabilities: { approvalFrom: 'restricted' } },
    limits,
    ...options,
  });
  const skillCalls = (flow?: string) =>
    model.calls.filter((c) => c.phase === 'skill' && (flow === undefined || c.flow === flow));
  return { agent, model, store, fetched, skillCalls };
}

/** A model whose every call waits forever: the process "dies" in the middle of the turn. */
function hangingModel(): { model: LanguageModelV3; called: Promise<void> } {
  let called: () => void = () => {};
  const reached = new Promise<void>((resolve) => {
    called = resolve;
  });
  const hang = () => {
    called();
    return new Promise<never>(() => {});
  };
  return {
    model: {
      specificationVersion: 'v3',
      provider: 'test',
      modelId: 'hanging',
      supportedUrls: {},
      doGenerate: hang,
      doStream: hang,
    },
    called: reached,
  };
}

interface BoundCase {
  value: number;
  /** Runs the scenario on an agent with these limits and returns what the bound changes. */
  observe(limits: Partial<AgentLimits>): Promise<unknown>;
  defaults: unknown;
  set: unknown;
}

const cases: Record<keyof AgentLimits, BoundCase> = {
  maxInputChars: {
    value: 10,
    observe: async (limits) => {
      const { agent } = setup(limits);
      return agent.send({ threadId: 't', text: 'say hello there' }).then(
        (turn) => turn.status,
        (error: Error) => error.name,
      );
    },
    defaults: 'completed',
    set: 'InputError',
  },
  maxStackDepth: {
    value: 1,
    observe: async (limits) => {
      const store = createMemoryStore();
      await seedStack(store, 't', [flowInstance('flow_0', 'fetch', { status: 'active' })]);
      const { agent } = setup(limits, { store });
      return (await agent.send({ threadId: 't', text: 'say hi' })).reply.startsWith('I cannot start');
    },
    defaults: false,
    set: true,
  },
  maxFlowsPerTurn: {
    value: 1,
    observe: async (limits) => {
      const { agent, skillCalls } = setup(limits, { plan: { treeSearch: 'off' } });
      await agent.send({ threadId: 't', text: 'make a plan' });
      return skillCalls('say').length;
    },
    defaults: 2,
    set: 1,
  },
  maxToolResultChars: {
    value: 100,
    observe: async (limits) => {
      const { agent, skillCalls } = setup(limits);
      await agent.send({ threadId: 't', text: 'fetch' });
      const prompt = skillCalls('fetch')[1]?.prompt ?? [];
      const result = prompt.flatMap((m) => (m.role === 'tool' ? m.content : [])).at(0);
      const output = result?.type === 'tool-result' ? result.output : undefined;
      return output?.type === 'text' && output.value.includes('x'.repeat(1_200));
    },
    defaults: true,
    set: false,
  },
  recentMessages: {
    value: 2,
    observe: async (limits) => {
      const { agent, skillCalls } = setup(limits);
      for (const text of ['say one', 'say two', 'say three', 'say four'])
        await agent.send({ threadId: 't', text });
      return skillCalls('say')
        .at(-1)
        ?.prompt.filter((m) => m.role === 'user').length;
    },
    defaults: 3,
    set: 1,
  },
  leaseTtlMs: {
    value: 1_000,
    observe: async (limits) => {
      const store: StateStore = createMemoryStore();
      const other = { threadId: 't', owner: 'another-process', ttlMs: 1, now: start + 5_000 };
      const { agent, fetched } = setup(limits, { store, onFetch: () => store.acquireLease(other) });
      await agent.send({ threadId: 't', text: 'fetch' }).catch(() => undefined);
      // Whether another process could take the thread 5 s into the turn.
      return fetched;
    },
    defaults: [false],
    set: [true],
  },
  maxTurnAttempts: {
    value: 1,
    observe: async (limits) => {
      const store = createMemoryStore();
      const dying = hangingModel();
      void setup({}, { store, model: dying.model }).agent.send({
        threadId: 't',
        text: 'say hi',
        requestId: 'r1',
      });
      await dying.called;
      const later = standing(start + defaultAgentLimits.leaseTtlMs + 1);
      const { agent, skillCalls } = setup(limits, { store, clock: later });
      const turn = await agent.send({ threadId: 't', text: 'say hi', requestId: 'r1' });
      return [turn.status, skillCalls('say').length];
    },
    defaults: ['completed', 1],
    set: ['failed', 0],
  },
  approvalTtlMs: {
    value: 60_000,
    observe: async (limits) => {
      const { agent } = setup(limits);
      const turn = await agent.send({ threadId: 't', text: 'pay' });
      return turn.suspensions?.map((s) => s.expiresAt);
    },
    defaults: [undefined],
    set: [start + 60_000],
  },
  maxScratchpadEntries: {
    value: 2,
    observe: async (limits) => {
      const { agent } = setup(limits);
      await agent.send({ threadId: 't', text: 'say one' });
      await agent.send({ threadId: 't', text: 'say two' });
      return (await agent.readThread('t')).snapshot.scratchpad.length;
    },
    // Each completion writes its result and its summaries (three snippets here).
    defaults: 6,
    set: 2,
  },
  maxBackgroundFlows: {
    value: 1,
    observe: async (limits) => {
      const { agent, skillCalls } = setup(limits);
      await agent.send({ threadId: 't', text: 'kick' });
      return skillCalls('behind_one').length + skillCalls('behind_two').length;
    },
    defaults: 2,
    set: 1,
  },
};

describe('every bound of a turn changes what a turn does when it is set', () => {
  it.each(Object.entries(cases))('%s', async (bound, { value, observe, defaults, set }) => {
    expect(defaults).not.toEqual(set);
    expect(await observe({})).toEqual(defaults);
    expect(await observe({ [bound]: value })).toEqual(set);
  });
});
