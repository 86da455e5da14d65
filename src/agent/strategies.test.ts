// The decision layer's strategies (seed 003, issue 32 item 1), through createAgent: what a routed message
// does depends on its strategy — a SUB_AGENT goes to the background, a SCHEDULED_TASK to the scheduler, a
// DIRECT_RESPONSE is answered by a Converse flow — and the built-in fast paths answer with no model call.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineFlow } from '../flow/index.js';
import { createScheduler, type InProcessScheduler } from '../schedule/index.js';
import { createMemoryStore } from '../store/index.js';
import { createScriptedModel } from '../test/index.js';
import { createScheduleTool, defineTool, suspendToolCall, type ToolDefinition } from '../tool/index.js';
import { createSequentialIdGenerator } from '../util/index.js';
import { createAgent } from './create-agent.js';
import { call, createTripDomain, stepAbout } from './fixtures/plan-domain.js';
import { finish, lookupFlow, notesFlow, reportFlow, setupAgent, testTools } from './fixtures/test-domain.js';

const intentOf = (turn: { observations: { type: string; data: Record<string, unknown> }[] }) =>
  turn.observations.find((o) => o.type === 'intent')?.data;

describe('strategies', () => {
  it('SUB_AGENT: a message routed to an Internal flow starts it in the background; the next turn has its result', async () => {
    const slowNotes = defineTool({
      name: 'read_notes',
      description: 'Notes about a city.',
      input: z.object({ city: z.string() }),
      idempotent: true,
      execute: async ({ city }) => {
        await new Promise((resolve) => setTimeout(resolve, 300));
        return { city, notes: 'fjords' };
      },
    }) as ToolDefinition;
    const research = defineFlow({
      name: 'research_city',
      intent: 'internal',
      description: 'Research a city.',
      slots: [{ name: 'city', type: 'text', priority: 'optional', description: 'City' }],
      tools: ['read_notes'],
    });
    const model = createScriptedModel({
      steps: [
        {
          match: { phase: 'skill', flow: 'research_city' },
          toolCalls: [{ toolName: 'read_notes', input: { city: 'Oslo' } }],
        },
        {
          match: { phase: 'skill', flow: 'research_city' },
          toolCalls: finish({ outcome: 'success', data: { text: 'Oslo has fjords.' } }),
        },
      ],
    });
    const agent = createAgent({
      model,
      flows: [lookupFlow(), research],
      tools: [...testTools(), slowNotes],
      rules: [{ pattern: /^research (?<city>\w+)$/i, flow: 'research_city' }],
      store: createMemoryStore(),
      ids: createSequentialIdGenerator(),
    });
    const started = performance.now();
    const turn = await agent.send({ threadId: 'sub', text: 'research Oslo' });
    expect(performance.now() - started).toBeLessThan(200);
    expect(intentOf(turn)).toMatchObject({ flow: 'research_city', strategy: 'sub-agent' });
    expect(turn.reply).toBe(
      'I have started to research a city in the background; the result will be there for your next message.',
    );
    expect(turn.stack).toEqual([]);
    await agent.send({ threadId: 'sub', text: 'thanks' });
    const { snapshot } = await agent.readThread('sub');
    expect(snapshot.scratchpad.map((e) => e.text)).toContain('research_city: Oslo has fjords.');
    await agent.close();
  });

  it('SCHEDULED_TASK: a script flow hands the request to the scheduler, with no model call', async () => {
    const store = createMemoryStore();
    let scheduler: InProcessScheduler | undefined;
    const remind = defineFlow({
      name: 'remind',
      intent: 'schedule',
      description: 'Remind me of something later.',
      slots: [
        { name: 'minutes', type: 'number', priority: 'required', description: 'In how many minutes' },
        { name: 'what', type: 'free-text', priority: 'required', description: 'What to remind of' },
      ],
      tools: ['schedule_task'],
      run: async (slots, ctx) => {
        const at = new Date(Date.UTC(2030, 0, 1) + Number(slots.minutes) * 60_000).toISOString();
        const result = await ctx.callTool('schedule_task', { text: `Reminder: ${slots.what}`, at, id: 'r1' });
        return {
          text: result.status === 'success' ? `I will remind you at ${at}.` : 'I could not schedule it.',
        };
      },
    });
    const model = createScriptedModel({ steps: [] });
    const agent = createAgent({
      model,
      flows: [remind],
      tools: [createScheduleTool({ scheduler: () => scheduler as InProcessScheduler })],
      rules: [{ pattern: /^remind me in (?<minutes>\d+) minutes to (?<what>.+)$/i, flow: 'remind' }],
      store,
      ids: createSequentialIdGenerator(),
    });
    scheduler = createScheduler({ agent, store });
    const turn = await agent.send({ threadId: 'sched', text: 'remind me in 5 minutes to call Ada' });
    expect(turn.reply).toBe('I will remind you at 2030-01-01T00:05:00.000Z.');
    expect(intentOf(turn)).toMatchObject({ flow: 'remind', strategy: 'script' });
    const [entry] = await scheduler.listSchedules();
    expect(entry).toMatchObject({ id: 'r1', threadId: 'sched', text: 'Reminder: call Ada' });
    expect(model.callCount).toBe(0);
    await scheduler.close();
    await agent.close();
  });

  it('DIRECT_RESPONSE: a Converse flow answers', async () => {
    const chat = defineFlow({ name: 'chat', intent: 'converse', description: 'Chat about anything.' });
    const model = createScriptedModel({
      steps: [{ match: { phase: 'skill', flow: 'chat' }, text: 'Happy to chat.' }],
    });
    const agent = createAgent({
      model,
      flows: [chat],
      rules: [{ pattern: /^let's chat$/i, flow: 'chat' }],
      store: createMemoryStore(),
      ids: createSequentialIdGenerator(),
    });
    const turn = await agent.send({ threadId: 'c', text: "let's chat" });
    expect(intentOf(turn)).toMatchObject({ flow: 'chat', strategy: 'direct-response' });
    expect(turn.reply).toBe('Happy to chat.');
    expect(model.calls.map((c) => c.phase)).toEqual(['skill']);
  });
});

describe('built-in fast paths with no model call', () => {
  it('undo takes back the flow the last message started; with nothing to undo it says so', async () => {
    const { agent, model } = setupAgent({ steps: [] });
    const asked = await agent.send({ threadId: 'u', text: 'weather' });
    expect(asked.pending?.slot).toBe('city');
    const undone = await agent.send({ threadId: 'u', text: 'undo' });
    expect(undone.reply).toBe('Undone: I will not tell the weather in a city.');
    expect(undone.stack).toEqual([]);
    expect(undone.pending).toBeUndefined();
    const nothing = await agent.send({ threadId: 'u', text: 'undo that' });
    expect(nothing.reply).toContain('There is nothing I can undo');
    expect(model.callCount).toBe(0);
    expect(intentOf(undone)).toMatchObject({ source: 'fast-path', builtIn: 'undo' });
  });

  it('status says what is under way, with the slots filled so far', async () => {
    const { agent, model } = setupAgent({ steps: [] });
    const idle = await agent.send({ threadId: 'st', text: 'where are we?' });
    expect(idle.reply).toBe('Nothing is under way.');
    await agent.send({ threadId: 'st', text: 'email it to ada@example.com' });
    const status = await agent.send({ threadId: 'st', text: 'status' });
    expect(status.reply).toContain('Under way:\n- Email the weather report. (to = ada@example.com)');
    expect(model.callCount).toBe(0);
  });

  it('each common message takes its fast path', async () => {
    const { agent, model } = setupAgent({ steps: [], flows: [lookupFlow(), reportFlow(), notesFlow] });
    const replies: string[] = [];
    for (const text of [
      'hi',
      'thank you',
      'help',
      'what can you do?',
      'cancel',
      'say that again',
      'progress',
    ])
      replies.push((await agent.send({ threadId: 'fp', text })).reply);
    expect(replies[0]?.startsWith('Hello! I can help with:')).toBe(true);
    expect(replies.slice(1)).toEqual([
      "You're welcome.",
      'I can help with:\n- Tell the weather in a city.\n- Report the weather for a city or a region.',
      'I can help with:\n- Tell the weather in a city.\n- Report the weather for a city or a region.',
      'There is nothing to cancel.',
      'There is nothing to cancel.',
      'Nothing is under way.',
    ]);
    expect(model.callCount).toBe(0);
  });

  it('status while a plan waits lists its steps, with no model call', async () => {
    const askOwner = defineTool({
      name: 'ask_owner',
      description: 'Asks the trip owner.',
      input: z.object({ question: z.string() }),
      execute: ({ question }) => suspendToolCall(`The owner must answer: ${question}`),
    }) as ToolDefinition;
    const model = createScriptedModel({
      steps: [
        { match: { phase: 'predict' }, json: { flow: 'plan', slots: {} } },
        {
          match: { phase: 'plan' },
          json: { title: 'Budget', items: [{ description: 'Ask the budget', requiredTools: ['ask_owner'] }] },
        },
        { match: stepAbout('Ask the budget'), ...call('ask_owner', { question: 'What is the budget?' }) },
      ],
    });
    const agent = createAgent({
      model,
      flows: createTripDomain().flows,
      tools: [askOwner],
      store: createMemoryStore(),
      ids: createSequentialIdGenerator(),
      plan: { treeSearch: 'off' },
    });
    const first = await agent.send({ threadId: 'plan', text: 'plan the budget' });
    expect(first.status).toBe('suspended');
    const calls = model.callCount;
    const status = await agent.send({ threadId: 'plan', text: 'where are we?' });
    expect(status.reply).toContain('Budget: 0 of 1 steps done.\n- [waiting] Ask the budget');
    expect(model.callCount).toBe(calls);
    // The plan loop saves at its boundaries, so the intent is read back from the store.
    const intents = (await agent.store.readObservations('plan'))
      .map((row) => JSON.parse(row.data) as { type: string; turnId: string; data: Record<string, unknown> })
      .filter((o) => o.type === 'intent' && o.turnId === status.turnId);
    expect(intents.map((o) => o.data)).toEqual([
      { source: 'fast-path', builtIn: 'status', strategy: 'script' },
    ]);
  });
});
