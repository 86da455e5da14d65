import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FlowstackError, InputError, SnapshotError, ThreadNotFoundError } from '../errors/index.js';
import { defineFlow } from '../flow/index.js';
import type { Observation, StateStore } from '../spec/index.js';
import { createMemoryStore, createSqliteStore } from '../store/index.js';
import { createScriptedModel, type ScriptStep } from '../test/index.js';
import { defineTool } from '../tool/index.js';
import { createSequentialIdGenerator } from '../util/index.js';
import { createAgent } from './create-agent.js';
import { weatherFlow } from './fixtures/weather-flow.js';
import type { ThreadView } from './index.js';

function weatherTool(calls: string[]) {
  return defineTool({
    name: 'lookup_weather',
    description: 'Current weather for a city.',
    input: z.object({ city: z.string() }),
    output: z.object({ city: z.string(), celsius: z.number() }),
    idempotent: true,
    execute: ({ city }) => {
      calls.push(city);
      return { city, celsius: 21 };
    },
  });
}

const dir = mkdtempSync(join(tmpdir(), 'flowstack-agent-'));
const stores: StateStore[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
});

function setup(steps: ScriptStep[], store: StateStore = createMemoryStore()) {
  stores.push(store);
  const calls: string[] = [];
  const model = createScriptedModel({ steps });
  const agent = createAgent({
    model,
    flows: [weatherFlow],
    tools: [weatherTool(calls)],
    store,
    ids: createSequentialIdGenerator(),
  });
  return { agent, model, calls, store };
}

const weatherScript: ScriptStep[] = [
  { match: { phase: 'predict' }, json: { flow: 'get_weather', slots: {} } },
  {
    match: { phase: 'skill', flow: 'get_weather' },
    toolCalls: [{ toolName: 'lookup_weather', input: { city: 'Oslo' } }],
  },
  {
    match: { phase: 'skill', flow: 'get_weather' },
    toolCalls: [
      { toolName: 'finish_skill', input: { outcome: 'success', data: { text: 'It is 21 °C in Oslo.' } } },
    ],
  },
];

/** What `fixtures/read-thread.ts` prints after loading a thread from the SQLite file in a new process. */
function readThreadInNewProcess(
  path: string,
  threadId: string,
): Omit<ThreadView, 'threadId' | 'suspensions'> {
  const script = join(import.meta.dirname, 'fixtures', 'read-thread.ts');
  const output = execFileSync(process.execPath, ['--import', 'tsx', script, path, threadId], {
    encoding: 'utf8',
  });
  return JSON.parse(output);
}

describe('createAgent', () => {
  it('asks for a missing slot, fills it from the next message, runs the tool, and persists the thread in SQLite', async () => {
    const path = join(dir, 'two-turns.db');
    const { agent, calls, model } = setup(weatherScript, createSqliteStore({ path }));

    const first = await agent.send({ threadId: 't1', text: 'What is the weather like?' });
    expect(first.status).toBe('needs-input');
    expect(first.reply).toBe('Which city?');
    expect(first.pending?.slot).toBe('city');
    expect(calls).toEqual([]);

    const second = await agent.send({ threadId: 't1', text: 'Oslo' });
    expect(second.status).toBe('completed');
    expect(second.reply).toBe('It is 21 °C in Oslo.');
    expect(calls).toEqual(['Oslo']);
    expect(second.stack).toEqual([]);
    expect(model.remaining()).toBe(0);

    const local = await agent.readThread('t1');
    expect(local.messages.map((m) => m.text)).toEqual([
      'What is the weather like?',
      'Which city?',
      'Oslo',
      'It is 21 °C in Oslo.',
    ]);
    const remote = readThreadInNewProcess(path, 't1');
    expect(remote.snapshot).toEqual(local.snapshot);
    expect(remote.messages).toEqual(local.messages);
    expect(remote.version).toBe(local.version);
  });

  it('keeps the stack and slots across a process boundary while a question is pending', async () => {
    const path = join(dir, 'pending.db');
    const { agent } = setup(weatherScript, createSqliteStore({ path }));
    await agent.send({ threadId: 't2', text: 'weather please' });
    const remote = readThreadInNewProcess(path, 't2');
    expect(remote.snapshot.stack).toEqual([
      { id: 'flow_1', name: 'get_weather', status: 'active', slots: {}, retries: 0 },
    ]);
  });

  it('a new process finds the same stack, filled slot and history of a flow stopped between two questions', async () => {
    const path = join(dir, 'filled-slot.db');
    const store = createSqliteStore({ path });
    stores.push(store);
    const bookTable = defineFlow({
      name: 'book_table',
      intent: 'transform',
      description: 'Book a table at a restaurant.',
      slots: [
        { name: 'city', type: 'text', priority: 'required', description: 'City', question: 'Which city?' },
        { name: 'time', type: 'text', priority: 'required', description: 'Time', question: 'At what time?' },
      ],
      tools: ['book_table'],
      skill: 'Book a table in {{city}} at {{time}}.',
    });
    const booking = defineTool({
      name: 'book_table',
      description: 'Books a table.',
      input: z.object({ city: z.string(), time: z.string() }),
      execute: () => ({ booked: true }),
    });
    const agent = createAgent({
      model: createScriptedModel({
        steps: [{ match: { phase: 'predict' }, json: { flow: 'book_table', slots: {} } }],
      }),
      flows: [bookTable],
      tools: [booking],
      store,
      ids: createSequentialIdGenerator(),
    });
    expect((await agent.send({ threadId: 't-book', text: 'book me a table' })).reply).toBe('Which city?');
    const second = await agent.send({ threadId: 't-book', text: 'Oslo' });
    expect(second.reply).toBe('At what time?');

    const local = await agent.readThread('t-book');
    const top = local.snapshot.stack.at(-1);
    expect(top).toMatchObject({ name: 'book_table', status: 'active' });
    expect(top?.slots).toEqual({ city: 'Oslo' });
    expect(local.snapshot.pending).toMatchObject({ slot: 'time' });

    const remote = readThreadInNewProcess(path, 't-book');
    expect(remote.snapshot).toEqual(local.snapshot);
    expect(remote.snapshot.stack).toEqual(local.snapshot.stack);
    expect(remote.messages).toEqual(local.messages);
    expect(remote.messages).toEqual([
      { seq: 1, role: 'user', text: 'book me a table', turnId: 'turn_1' },
      { seq: 2, role: 'assistant', text: 'Which city?', turnId: 'turn_1' },
      { seq: 3, role: 'user', text: 'Oslo', turnId: 'turn_2' },
      { seq: 4, role: 'assistant', text: 'At what time?', turnId: 'turn_2' },
    ]);
    expect(remote.version).toBe(local.version);
  });

  it('publishes observations only after they are saved, with store ids', async () => {
    const { agent, store } = setup(weatherScript);
    const seen: Observation[] = [];
    const counts: number[] = [];
    agent.subscribe((o) => {
      seen.push(o);
      void store.readObservations('t3').then((rows) => counts.push(rows.filter((r) => r.id === o.id).length));
    });
    await agent.send({ threadId: 't3', text: 'weather in?' });
    await agent.send({ threadId: 't3', text: 'Oslo' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen.map((o) => o.type)).toEqual([
      'intent',
      'flow-push',
      'clarification',
      'final-response',
      'intent',
      'tool-call',
      'tool-execution',
      'flow-pop',
      'final-response',
    ]);
    expect(counts.every((c) => c === 1)).toBe(true);
    expect(seen.every((o, i) => i === 0 || o.id > (seen[i - 1] as Observation).id)).toBe(true);
  });

  it('routes by a fast-path rule without calling the model to predict', async () => {
    const model = createScriptedModel({ steps: weatherScript.slice(1) });
    const store = createMemoryStore();
    stores.push(store);
    const agent = createAgent({
      model,
      flows: [weatherFlow],
      tools: [weatherTool([])],
      store,
      rules: [{ pattern: /^weather in (?<city>\w+)$/i, flow: 'get_weather' }],
    });
    const turn = await agent.send({ threadId: 'fast', text: 'weather in Oslo' });
    expect(turn.reply).toBe('It is 21 °C in Oslo.');
    expect(model.calls.map((c) => c.phase)).toEqual(['skill', 'skill']);
  });
});

describe('bad input', () => {
  it('rejects an empty message with a typed error and leaves the thread as it was', async () => {
    const { agent, store } = setup(weatherScript);
    await agent.send({ threadId: 'b1', text: 'weather?' });
    const before = await store.loadThread('b1');
    for (const text of ['', '   \n\t ']) {
      const error = await agent.send({ threadId: 'b1', text }).catch((e: unknown) => e);
      expect(InputError.isInstance(error)).toBe(true);
      expect((error as InputError).reason).toBe('empty');
    }
    expect(await store.loadThread('b1')).toEqual(before);
  });

  it('rejects a 1 MB message as too long without touching the thread', async () => {
    const { agent, store, model } = setup(weatherScript);
    const error = await agent
      .send({ threadId: 'b2', text: 'x'.repeat(1024 * 1024) })
      .catch((e: unknown) => e);
    expect(InputError.isInstance(error)).toBe(true);
    expect((error as InputError).reason).toBe('too_long');
    expect((error as Error).message).toContain('1048576 characters');
    expect(await store.loadThread('b2')).toBeUndefined();
    expect(model.callCount).toBe(0);
  });

  it('reports an unknown thread id with ThreadNotFoundError on read, and starts a new thread on send', async () => {
    const { agent } = setup(weatherScript);
    const error = await agent.readThread('nope').catch((e: unknown) => e);
    expect(ThreadNotFoundError.isInstance(error)).toBe(true);
    expect((error as ThreadNotFoundError).threadId).toBe('nope');
    const turn = await agent.send({ threadId: 'nope', text: 'weather?' });
    expect(turn.status).toBe('needs-input');
  });

  it('sends malformed tool arguments back to the model as an error it can fix', async () => {
    const { agent, calls, model } = setup([
      { match: { phase: 'predict' }, json: { flow: 'get_weather', slots: { city: 'Oslo' } } },
      {
        match: { phase: 'skill' },
        toolCalls: [{ toolName: 'lookup_weather', input: {} }],
        rawToolInput: '{"city": "Oslo"',
      },
      { match: { phase: 'skill' }, toolCalls: [{ toolName: 'lookup_weather', input: { city: 42 } }] },
      ...weatherScript.slice(1),
    ]);
    const turn = await agent.send({ threadId: 'b3', text: 'weather in Oslo' });
    expect(turn.status).toBe('completed');
    expect(calls).toEqual(['Oslo']);
    // Unparseable arguments are retried once with a hint, without entering the transcript (seed 000).
    expect(JSON.stringify(model.calls[2]?.prompt.at(-1))).toContain('not valid JSON');
    const toolResults = model.calls[3]?.prompt.at(-1);
    expect(JSON.stringify(toolResults)).toContain('validation_error');
    expect(JSON.stringify(model.calls[3]?.prompt)).not.toContain('not valid JSON');
  });

  it('ends a turn whose model never sends valid arguments with a bounded failure, not a crash', async () => {
    const { agent, calls } = setup([
      { match: { phase: 'predict' }, json: { flow: 'get_weather', slots: { city: 'Oslo' } } },
      {
        match: { phase: 'skill' },
        toolCalls: [{ toolName: 'lookup_weather', input: {} }],
        rawToolInput: 'city=Oslo',
        repeat: true,
      },
    ]);
    const turn = await agent.send({ threadId: 'b4', text: 'weather in Oslo' });
    expect(turn.status).toBe('failed');
    expect(turn.reply).toContain('did not finish within 5 model calls');
    expect(calls).toEqual([]);
    const thread = await agent.readThread('b4');
    expect(thread.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it('ends the turn with an error reply, keeping the message, when the model fails', async () => {
    const { agent } = setup([{ match: { phase: 'predict' }, error: new Error('503 upstream unavailable') }]);
    const turn = await agent.send({ threadId: 'b5', text: 'weather in Oslo?' });
    expect(turn.status).toBe('failed');
    expect(turn.reply).toContain('503 upstream unavailable');
    expect((await agent.readThread('b5')).messages[0]?.text).toBe('weather in Oslo?');
  });

  it('fails loudly on a corrupt snapshot and leaves the stored row untouched', async () => {
    const { agent, store } = setup(weatherScript);
    await agent.send({ threadId: 'b6', text: 'weather?' });
    const stored = await store.loadThread('b6');
    await store.commit({
      threadId: 'b6',
      expectedVersion: stored?.version ?? 0,
      data: '{"schemaVersion": 1, "stack": [',
      now: 1,
    });
    const corrupt = await store.loadThread('b6');
    const error = await agent.send({ threadId: 'b6', text: 'Oslo' }).catch((e: unknown) => e);
    expect(SnapshotError.isInstance(error)).toBe(true);
    expect((error as SnapshotError).reason).toBe('corrupt');
    expect(await store.loadThread('b6')).toEqual(corrupt);
    const read = await agent.readThread('b6').catch((e: unknown) => e);
    expect(FlowstackError.isInstance(read)).toBe(true);
  });

  it('refuses a snapshot written by a newer flowstack', async () => {
    const { agent, store } = setup(weatherScript);
    await store.commit({
      threadId: 'b7',
      expectedVersion: 0,
      data: JSON.stringify({ schemaVersion: 99 }),
      now: 1,
    });
    const error = await agent.send({ threadId: 'b7', text: 'Oslo' }).catch((e: unknown) => e);
    expect(SnapshotError.isInstance(error)).toBe(true);
    expect((error as SnapshotError).reason).toBe('future_version');
  });
});
