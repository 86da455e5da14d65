import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Message, type Part, Role, type Task, TaskState } from '@a2a-js/sdk';
import {
  type Client,
  ClientFactory,
  ClientFactoryOptions,
  JsonRpcTransportFactory,
} from '@a2a-js/sdk/client';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { TurnResult } from '../agent/index.js';
import { createSqliteStore } from '../store/index.js';
import { createWeatherAgent, startTestServer, tokens } from './fixtures/server-fixture.js';
import type { ResumeOptions, ServerAgent } from './server-types.js';

const running: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

const a2a = {
  name: 'Weather desk',
  description: 'Tells the weather.',
  skills: [{ id: 'get_weather', description: 'Tell the weather in a city.' }],
};

/** An official A2A client that sends the principal's bearer token. */
async function clientFor(url: string, principal: keyof typeof tokens): Promise<Client> {
  const fetchImpl: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${tokens[principal]}`);
    return fetch(input, { ...init, headers });
  };
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl })],
    }),
  );
  return factory.createFromUrl(url);
}

function userMessage(
  text: string,
  ids: { taskId?: string; contextId?: string } = {},
  extra: Part[] = [],
): Message {
  return {
    messageId: randomUUID(),
    contextId: ids.contextId ?? '',
    taskId: ids.taskId ?? '',
    role: Role.ROLE_USER,
    parts: [
      { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' },
      ...extra,
    ],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

function send(client: Client, message: Message) {
  return client.sendMessage({ tenant: '', message, configuration: undefined, metadata: undefined });
}

function textOf(message: Message | undefined): string {
  return (message?.parts ?? []).map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('');
}

function asTask(result: Message | Task): Task {
  expect('status' in result).toBe(true);
  return result as Task;
}

describe('the A2A endpoint (official @a2a-js/sdk client and server)', () => {
  it('serves the agent card, and a task that needs input completes after the client answers', async () => {
    const server = await startTestServer({ server: { a2a } });
    running.push(server);
    const card = await (await fetch(`${server.url}/.well-known/agent-card.json`)).json();
    expect(card).toMatchObject({ name: 'Weather desk', capabilities: { streaming: true } });
    expect(card.supportedInterfaces[0]).toMatchObject({
      url: `${server.url}/a2a`,
      protocolBinding: 'JSONRPC',
    });

    const client = await clientFor(server.url, 'alice');
    const first = asTask(await send(client, userMessage('What is the weather like?')));
    expect(first.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(textOf(first.status?.message)).toBe('Which city?');

    const done = asTask(
      await send(client, userMessage('Oslo', { taskId: first.id, contextId: first.contextId })),
    );
    expect(done.id).toBe(first.id);
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(textOf(done.status?.message)).toBe('It is 21 °C.');
    expect(done.artifacts.map((a) => textOf({ parts: a.parts } as Message))).toEqual(['It is 21 °C.']);

    const fetched = await client.getTask({ tenant: '', id: first.id });
    expect(fetched.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    // The task's context is a thread of the principal, readable over the HTTP API.
    const thread = await server.agent.readThread(first.contextId);
    expect(thread.messages.map((m) => m.text)).toEqual([
      'What is the weather like?',
      'Which city?',
      'Oslo',
      'It is 21 °C.',
    ]);
    expect((await server.agent.store.loadThread(first.contextId))?.principal).toBe('alice');
  });

  it('finds a task waiting for input after a restart on the same SQLite file, and completes it', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'flowstack-a2a-restart-'));
    const path = join(folder, 'flowstack.db');
    try {
      const before = await startTestServer({
        agent: createWeatherAgent({ store: createSqliteStore({ path }) }).agent,
        server: { a2a },
      });
      const token = `ghp_${'a1B2c3D4e5'.repeat(4)}`;
      const first = asTask(
        await send(
          await clientFor(before.url, 'alice'),
          userMessage(`What is the weather like? My key is ${token}`),
        ),
      );
      expect(first.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      await before.close();
      // The stored task keeps the conversation redacted, as the thread's history does.
      const raw = new Database(path, { readonly: true });
      const stored = raw.prepare('SELECT data FROM a2a_tasks').pluck().all().join('\n');
      raw.close();
      expect(stored).toContain('[REDACTED:github-token]');
      expect(stored).not.toContain(token);

      const after = await startTestServer({
        agent: createWeatherAgent({ store: createSqliteStore({ path }) }).agent,
        server: { a2a },
      });
      running.push(after);
      const client = await clientFor(after.url, 'alice');
      const waiting = await client.getTask({ tenant: '', id: first.id });
      expect(waiting.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      const done = asTask(
        await send(client, userMessage('Oslo', { taskId: first.id, contextId: first.contextId })),
      );
      expect(done.id).toBe(first.id);
      expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(textOf(done.status?.message)).toBe('It is 21 °C.');
      // A second waiting task, cancelled after another restart.
      const second = asTask(await send(client, userMessage('What is the weather like?')));
      await after.close();
      running.splice(running.indexOf(after), 1);
      const third = await startTestServer({
        agent: createWeatherAgent({ store: createSqliteStore({ path }) }).agent,
        server: { a2a },
      });
      running.push(third);
      const cancelled = await (await clientFor(third.url, 'alice')).cancelTask({
        tenant: '',
        id: second.id,
        metadata: undefined,
      });
      expect(cancelled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
      expect(cancelled.contextId).toBe(second.contextId);
      // Another principal cannot reach the task by its id.
      await expect((await clientFor(third.url, 'bob')).getTask({ tenant: '', id: first.id })).rejects.toThrow(
        /not found/i,
      );
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('streams working updates and the answer, and cancels a task waiting for input', async () => {
    const server = await startTestServer({ server: { a2a } });
    running.push(server);
    const client = await clientFor(server.url, 'alice');
    const states: TaskState[] = [];
    const working: string[] = [];
    let artifact = '';
    for await (const event of client.sendMessageStream({
      tenant: '',
      message: userMessage('weather in Rome'),
      configuration: undefined,
      metadata: undefined,
    })) {
      const payload = event.payload;
      if (payload?.$case === 'statusUpdate') {
        const state = payload.value.status?.state as TaskState;
        states.push(state);
        if (state === TaskState.TASK_STATE_WORKING && payload.value.status?.message)
          working.push(textOf(payload.value.status.message));
      }
      if (payload?.$case === 'artifactUpdate')
        artifact = textOf({ parts: payload.value.artifact?.parts ?? [] } as unknown as Message);
    }
    expect(states.at(-1)).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(working).toContain('Calling lookup_weather…');
    expect(artifact).toBe('It is 21 °C.');

    const waiting = asTask(await send(client, userMessage('weather?')));
    expect(waiting.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const cancelled = await client.cancelTask({ tenant: '', id: waiting.id, metadata: undefined });
    expect(cancelled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });

  it('keeps one principal out of another’s tasks and threads', async () => {
    const server = await startTestServer({ server: { a2a } });
    running.push(server);
    const alice = await clientFor(server.url, 'alice');
    const bob = await clientFor(server.url, 'bob');
    const task = asTask(await send(alice, userMessage('weather?')));
    await expect(bob.getTask({ tenant: '', id: task.id })).rejects.toThrow();
    // Bob naming Alice's context starts nothing in her thread.
    const before = await server.agent.store.loadThread(task.contextId);
    const intruder = asTask(await send(bob, userMessage('Oslo', { contextId: task.contextId })));
    expect(intruder.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(await server.agent.store.loadThread(task.contextId)).toEqual(before);
    const anonymous = await fetch(`${server.url}/a2a`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(anonymous.status).toBe(401);
  });

  it('maps a suspension to input-required and resumes it with the client’s next message as feedback', async () => {
    // A stand-in for the durability layer: the first turn suspends on an approval, resume completes it.
    const { agent } = createWeatherAgent();
    const resumed: ResumeOptions[] = [];
    const suspendedTurn = (threadId: string): TurnResult => ({
      threadId,
      turnId: 'turn_s',
      status: 'suspended',
      reply: 'Waiting for your decision on book_flight: needs approval',
      frames: [],
      stack: [],
      observations: [
        {
          specVersion: 1,
          id: 1,
          threadId,
          turnId: 'turn_s',
          type: 'suspended',
          time: 0,
          data: {
            suspensionId: 'susp_1',
            callId: 'call_1',
            toolName: 'book_flight',
            reason: 'needs approval',
          },
        },
      ],
    });
    const durable: ServerAgent = {
      ...agent,
      send: async (options) => {
        await agent.send(options);
        const stored = await agent.store.loadThread(options.threadId);
        await agent.store.commit({
          threadId: options.threadId,
          expectedVersion: stored?.version ?? 0,
          data: stored?.data ?? '{}',
          ...(options.principal ? { principal: options.principal } : {}),
          observations: [
            { type: 'suspended', data: JSON.stringify(suspendedTurn(options.threadId).observations[0]) },
          ],
          now: 1,
        });
        return suspendedTurn(options.threadId);
      },
      resume: async (options) => {
        resumed.push(options);
        return {
          ...(await agent.send({
            threadId: options.threadId,
            text: 'weather in Oslo',
            principal: options.principal as string,
          })),
        };
      },
    };
    const server = await startTestServer({ agent: durable, server: { a2a } });
    running.push(server);
    const client = await clientFor(server.url, 'alice');
    const first = asTask(await send(client, userMessage('book TP1351 for Ada')));
    expect(first.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const data = first.status?.message?.parts.find((p) => p.content?.$case === 'data');
    expect(data?.content?.value).toMatchObject({ suspensionId: 'susp_1', toolName: 'book_flight' });
    const done = asTask(
      await send(client, userMessage('no, too expensive', { taskId: first.id, contextId: first.contextId })),
    );
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(resumed.map((r) => [r.suspensionId, r.feedback, r.principal])).toEqual([
      ['susp_1', { decision: 'reject', reason: 'too expensive' }, 'alice'],
    ]);
  });
});
