/**
 * The rollback route with a real agent (seed 004): a failed file edit is listed in the thread's
 * `fileSnapshots`, POST /rollback restores the files and answers the report, the same again, refuses
 * (409) when the files changed after the call unless `force`, and bad requests get problem details.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent } from '../agent/index.js';
import { defineFlow } from '../flow/index.js';
import { createMemoryStore } from '../store/index.js';
import { createScriptedModel } from '../test/index.js';
import { createEditFilesTool } from '../tool/fixtures/edit-files-tool.js';
import { api, startTestServer } from './fixtures/server-fixture.js';

const running: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

describe('POST /v1/threads/{threadId}/rollback', () => {
  it('restores the files of a failed call, answers the same report twice, and refuses bad requests', async () => {
    const base = mkdtempSync(join(tmpdir(), 'flowstack-rollback-route-'));
    const root = join(base, 'work');
    mkdirSync(root);
    writeFileSync(join(root, 'plan.md'), 'v1');
    const agent = createAgent({
      model: createScriptedModel({
        steps: [
          { match: { phase: 'predict' }, json: { flow: 'edit_docs', slots: {} }, repeat: true },
          {
            match: { phase: 'skill' },
            toolCalls: [
              {
                toolName: 'edit_files',
                callId: 'e1',
                input: {
                  edits: [
                    { path: 'plan.md', text: 'v2' },
                    { path: 'extra.md', text: 'new' },
                    { path: 'last.md', text: 'never' },
                  ],
                  failAfter: 2,
                },
              },
            ],
          },
        ],
      }),
      flows: [
        defineFlow({
          name: 'edit_docs',
          intent: 'transform',
          description: 'Edit documents.',
          slots: [],
          tools: ['edit_files'],
          skill: 'Edit the files.',
        }),
      ],
      tools: [createEditFilesTool(root)],
      store: createMemoryStore(),
      files: { root, snapshotDir: join(base, 'snapshots') },
      toolPipeline: { simulate: undefined },
    });
    const server = await startTestServer({ agent });
    running.push(server);
    const alice = api(server.url, 'alice');
    const bob = api(server.url, 'bob');
    const turn = await (
      await alice('/v1/threads', { method: 'POST', json: { text: 'edit the plan' } })
    ).json();
    expect(turn.status).toBe('suspended');
    const thread = await (await alice(`/v1/threads/${turn.threadId}`)).json();
    expect(thread.capabilities.rollback).toBe(true);
    const [snapshot] = thread.fileSnapshots;
    expect(snapshot).toMatchObject({
      callId: 'e1',
      status: 'failed',
      paths: ['plan.md', 'extra.md', 'last.md'],
    });
    expect(readFileSync(join(root, 'plan.md'), 'utf8')).toBe('v2');

    const path = `/v1/threads/${turn.threadId}/rollback`;
    expect((await bob(path, { method: 'POST', json: { snapshotId: snapshot.id } })).status).toBe(404);
    expect((await alice(path, { method: 'POST', json: { snapshotId: 'fs_../../x' } })).status).toBe(404);
    expect((await alice(path, { method: 'POST', json: { snapshotId: snapshot.id, extra: 1 } })).status).toBe(
      400,
    );
    expect(readFileSync(join(root, 'plan.md'), 'utf8')).toBe('v2');

    // Someone edits the plan after the failed call: a rollback would lose that, so it is refused.
    writeFileSync(join(root, 'plan.md'), 'v2, edited by hand');
    const refused = await alice(path, { method: 'POST', json: { snapshotId: snapshot.id } });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ code: 'file_snapshot_conflict' });
    expect(readFileSync(join(root, 'plan.md'), 'utf8')).toBe('v2, edited by hand');

    const first = await alice(path, { method: 'POST', json: { snapshotId: snapshot.id, force: true } });
    expect(first.status).toBe(200);
    const report = await first.json();
    expect(report).toEqual({
      threadId: turn.threadId,
      result: {
        snapshotId: snapshot.id,
        threadId: turn.threadId,
        callId: 'e1',
        toolName: 'edit_files',
        status: 'rolled-back',
        restored: ['plan.md'],
        removed: ['extra.md'],
      },
    });
    expect(readFileSync(join(root, 'plan.md'), 'utf8')).toBe('v1');
    expect(existsSync(join(root, 'extra.md'))).toBe(false);
    const second = await alice(path, { method: 'POST', json: { callId: 'e1' } });
    expect(await second.json()).toEqual(report);
    const after = await (await alice(`/v1/threads/${turn.threadId}`)).json();
    expect(after.fileSnapshots[0].status).toBe('rolled-back');
  });
});
