// Display frames' further pages over HTTP (issue 32 item 5): GET /v1/threads/{id}/frames/{tableId}?page=N.
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent } from '../agent/index.js';
import { defineFlow } from '../flow/index.js';
import { createMemoryStore } from '../store/index.js';
import { createScriptedModel } from '../test/index.js';
import { defineTool } from '../tool/index.js';
import { createSequentialIdGenerator } from '../util/index.js';
import { api, startTestServer } from './fixtures/server-fixture.js';

const running: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

const rows = Array.from({ length: 1300 }, (_, n) => ({ n }));

function rowsAgent() {
  const listRows = defineTool({
    name: 'list_rows',
    description: 'Lists rows.',
    input: z.object({}),
    idempotent: true,
    execute: () => ({ count: rows.length }),
  });
  return createAgent({
    model: createScriptedModel({
      steps: [
        { match: { phase: 'predict' }, json: { flow: 'list_all', slots: {} }, repeat: true },
        {
          match: { phase: 'skill' },
          repeat: true,
          toolCalls: [
            { toolName: 'finish_skill', input: { outcome: 'success', data: { rows, text: 'Many rows.' } } },
          ],
        },
      ],
    }),
    flows: [
      defineFlow({
        name: 'list_all',
        intent: 'read',
        description: 'List every row.',
        tools: ['list_rows'],
        skill: 'List every row.',
      }),
    ],
    tools: [listRows],
    store: createMemoryStore(),
    ids: createSequentialIdGenerator(),
  });
}

describe('GET /v1/threads/{id}/frames/{tableId}', () => {
  it('reads the frame’s further pages, and refuses pages, tables and threads that are not there', async () => {
    const server = await startTestServer({ agent: rowsAgent() });
    running.push(server);
    const alice = api(server.url, 'alice');
    const turn = await (
      await alice('/v1/threads', { method: 'POST', json: { text: 'list all rows' } })
    ).json();
    const frame = turn.frames[0];
    expect(frame).toMatchObject({ tableId: expect.any(String), totalRows: 1300 });
    expect(frame.data).toHaveLength(512);
    const path = `/v1/threads/${turn.threadId}/frames/${frame.tableId}`;

    const second = await alice(`${path}?page=2`);
    expect(second.status).toBe(200);
    const page2 = await second.json();
    expect(page2).toMatchObject({
      tableId: frame.tableId,
      page: 2,
      pages: 3,
      pageRows: 512,
      totalRows: 1300,
    });
    expect(page2.rows).toHaveLength(512);
    expect(page2.rows[0]).toEqual({ n: 512 });
    const page3 = await (await alice(`${path}?page=3`)).json();
    expect(page3.rows).toHaveLength(276);
    expect(page3.rows.at(-1)).toEqual({ n: 1299 });
    const first = await (await alice(path)).json();
    expect(first.rows).toEqual(frame.data);

    expect((await alice(`${path}?page=4`)).status).toBe(400);
    expect((await alice(`${path}?page=0`)).status).toBe(400);
    expect((await alice(`${path}?page=two`)).status).toBe(400);
    const missing = await alice(`/v1/threads/${turn.threadId}/frames/nope?page=2`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 'frame_not_found' });
    // Another principal's thread is not found, as everywhere else.
    expect((await api(server.url, 'bob')(`${path}?page=2`)).status).toBe(404);
  });
});

describe('GET /v1/threads/{id}/frames', () => {
  it('lists the thread’s frames with the turn that made each, so a page shows them after a reload', async () => {
    const server = await startTestServer({ agent: rowsAgent() });
    running.push(server);
    const alice = api(server.url, 'alice');
    const first = await (
      await alice('/v1/threads', { method: 'POST', json: { text: 'list all rows' } })
    ).json();
    const second = await (
      await alice(`/v1/threads/${first.threadId}/messages`, { method: 'POST', json: { text: 'again' } })
    ).json();
    const listed = await alice(`/v1/threads/${first.threadId}/frames`);
    expect(listed.status).toBe(200);
    const { frames } = await listed.json();
    expect(frames.map((f: { turnId: string }) => f.turnId)).toEqual([first.turnId, second.turnId]);
    // The frame as the turn gave it: its first page, not every stored row.
    expect(frames[0].frame).toEqual(first.frames[0]);
    expect(frames[0].frame.data).toHaveLength(512);
    expect((await api(server.url, 'bob')(`/v1/threads/${first.threadId}/frames`)).status).toBe(404);
  });
});
