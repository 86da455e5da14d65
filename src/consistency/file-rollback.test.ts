/**
 * State consistency through the agent (seed 004, DESIGN.md §6): a tool that edits three files and dies
 * half-way leaves a snapshot; the person is asked to roll back, keep or continue; a rollback restores
 * every byte (binary too), removes what the call created, and running it again changes nothing.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent } from '../agent/index.js';
import { FileSnapshotError, ThreadNotFoundError } from '../errors/index.js';
import { defineFlow } from '../flow/index.js';
import type { StateStore } from '../spec/index.js';
import { createSqliteStore } from '../store/index.js';
import { createScriptedModel, type ScriptStep } from '../test/index.js';
import { createEditFilesTool } from '../tool/fixtures/edit-files-tool.js';
import { defineTool } from '../tool/index.js';
import type { Clock } from '../util/index.js';

const stores: StateStore[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
});

const binary = randomBytes(2048);
let base: string;
let root: string;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'flowstack-file-rollback-'));
  root = join(base, 'work');
  mkdirSync(root);
  writeFileSync(join(root, 'notes.txt'), 'line one\nline two\n');
  writeFileSync(join(root, 'logo.bin'), binary);
});

const editDocs = defineFlow({
  name: 'edit_docs',
  intent: 'transform',
  description: 'Edit the documents the user names.',
  slots: [],
  tools: ['edit_files'],
  skill: 'Edit the files with edit_files.',
});

const clock: Clock = { now: () => 2_000_000, sleep: () => new Promise(() => {}) };

const toolText = (call: LanguageModelV3CallOptions) =>
  JSON.stringify(call.prompt.filter((m) => m.role === 'tool' || m.role === 'system'));

const steps: ScriptStep[] = [
  { match: { phase: 'predict' }, json: { flow: 'edit_docs', slots: {} }, repeat: true },
  {
    match: { phase: 'skill', prompt: (call) => !call.prompt.some((m) => m.role === 'tool') },
    toolCalls: [
      {
        toolName: 'edit_files',
        callId: 'edit-1',
        input: {
          edits: [
            { path: 'notes.txt', text: 'rewritten' },
            { path: 'logo.bin', base64: Buffer.from('not a logo').toString('base64') },
            { path: 'drafts/new.md', text: '# new' },
            { path: 'never.txt', text: 'not reached' },
          ],
          failAfter: 3,
        },
      },
    ],
  },
  {
    match: { phase: 'skill' },
    respond: (call) => ({
      text: toolText(call).includes('rolled the files back')
        ? 'The edit failed; your files are as they were.'
        : 'The edit failed; the files are kept as they are.',
    }),
    repeat: true,
  },
];

function agentOn(name: string) {
  const store = createSqliteStore({ path: join(base, `${name}.db`) });
  stores.push(store);
  return createAgent({
    model: createScriptedModel({ steps }),
    flows: [editDocs],
    tools: [createEditFilesTool(root)],
    store,
    clock,
    files: { root, snapshotDir: join(base, 'snapshots') },
    toolPipeline: { simulate: undefined },
  });
}

function expectOriginal() {
  expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toBe('line one\nline two\n');
  expect(readFileSync(join(root, 'logo.bin')).equals(binary)).toBe(true);
  expect(existsSync(join(root, 'drafts'))).toBe(false);
  expect(existsSync(join(root, 'never.txt'))).toBe(false);
}

function expectEdited() {
  expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toBe('rewritten');
  expect(readFileSync(join(root, 'drafts/new.md'), 'utf8')).toBe('# new');
}

async function failHalfWay(name: string) {
  const agent = agentOn(name);
  const turn = await agent.send({ threadId: 't', text: 'rewrite my notes', principal: 'ana' });
  expect(turn.status).toBe('suspended');
  expectEdited();
  expect(turn.fileSnapshots?.map((s) => [s.callId, s.status])).toEqual([['edit-1', 'failed']]);
  const question = turn.suspensions?.[0];
  expect(question).toMatchObject({
    kind: 'rollback',
    toolName: 'edit_files',
    callId: 'edit-1',
    status: 'open',
  });
  expect(question?.prompt).toContain('disk full after 3 of 4 files');
  expect(question?.prompt).toContain('notes.txt, logo.bin, drafts/new.md');
  return { agent, question: question as NonNullable<typeof question> };
}

describe('file snapshots and rollback through the agent', () => {
  it('rolls back every byte when the person says so, and a second rollback returns the same report', async () => {
    const { agent, question } = await failHalfWay('rollback');
    const view = await agent.readThread('t');
    expect(view.fileSnapshots).toEqual([
      {
        id: question.fileSnapshotId,
        callId: 'edit-1',
        toolName: 'edit_files',
        status: 'failed',
        paths: ['notes.txt', 'logo.bin', 'drafts/new.md', 'never.txt'],
        createdAt: 2_000_000,
      },
    ]);
    const after = await agent.resume({
      threadId: 't',
      suspensionId: question.id,
      feedback: { decision: 'rollback' },
      principal: 'ana',
    });
    expect(after.status).toBe('completed');
    expect(after.reply).toBe('The edit failed; your files are as they were.');
    expectOriginal();
    expect((await agent.readThread('t')).fileSnapshots[0]?.status).toBe('rolled-back');

    const snapshotId = question.fileSnapshotId as string;
    const again = await agent.rollback({ threadId: 't', snapshotId, principal: 'ana' });
    expect(again).toEqual({
      snapshotId,
      threadId: 't',
      callId: 'edit-1',
      toolName: 'edit_files',
      status: 'rolled-back',
      restored: ['notes.txt', 'logo.bin'],
      removed: ['drafts/new.md'],
    });
    expect(await agent.rollback({ threadId: 't', callId: 'edit-1', principal: 'ana' })).toEqual(again);
    expectOriginal();
    const saved = (await agent.store.readObservations('t')).filter((o) => o.type === 'file-rollback');
    expect(saved.map((o) => JSON.parse(o.data).data)).toEqual([
      { ...again, by: 'ana' },
      { ...again, by: 'ana' },
    ]);
    const journal = await agent.store.listJournal('t');
    expect(journal.find((e) => e.callId === 'edit-1')?.status).toBe('failed');
  });

  it('takes the answer in words from the chat ("undo that")', async () => {
    const { agent } = await failHalfWay('chat');
    const after = await agent.send({ threadId: 't', text: 'undo that please', principal: 'ana' });
    expect(after.reply).toBe('The edit failed; your files are as they were.');
    expectOriginal();
  });

  it('keeps the files and goes on with continue, and a later rollback still restores them', async () => {
    const { agent, question } = await failHalfWay('continue');
    const after = await agent.resume({
      threadId: 't',
      suspensionId: question.id,
      feedback: { decision: 'continue' },
      principal: 'ana',
    });
    expect(after.status).toBe('completed');
    expect(after.reply).toBe('The edit failed; the files are kept as they are.');
    expectEdited();
    expect((await agent.readThread('t')).fileSnapshots[0]?.status).toBe('kept');
    await agent.rollback({ threadId: 't', snapshotId: question.fileSnapshotId as string, principal: 'ana' });
    expectOriginal();
  });

  it('keeps the files and stops the task with keep', async () => {
    const { agent, question } = await failHalfWay('keep');
    const after = await agent.resume({
      threadId: 't',
      suspensionId: question.id,
      feedback: { decision: 'keep' },
      principal: 'ana',
    });
    expect(after.reply).toContain('kept the files as the call left them and stopped');
    expect(after.stack).toEqual([]);
    expectEdited();
  });

  it('answers "rollback" over a later hand edit by changing nothing, and tells the model so', async () => {
    const plain = await failHalfWay('over-edit');
    writeFileSync(join(root, 'notes.txt'), 'fixed by hand');
    const refused = await plain.agent.resume({
      threadId: 't',
      suspensionId: plain.question.id,
      feedback: { decision: 'rollback' },
      principal: 'ana',
    });
    expect(refused.reply).toBe('The edit failed; the files are kept as they are.');
    expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toBe('fixed by hand');
  });

  it('restores the files over a later hand edit when the answer is "rollback" with force', async () => {
    const forced = await failHalfWay('forced');
    writeFileSync(join(root, 'notes.txt'), 'fixed by hand');
    const after = await forced.agent.resume({
      threadId: 't',
      suspensionId: forced.question.id,
      feedback: { decision: 'rollback', force: true },
      principal: 'ana',
    });
    expect(after.reply).toBe('The edit failed; your files are as they were.');
    expectOriginal();
  });

  it('answers bad rollback requests with typed errors and changes nothing', async () => {
    const { agent, question } = await failHalfWay('bad');
    const snapshotId = question.fileSnapshotId as string;
    const attempt = (options: Parameters<typeof agent.rollback>[0]) =>
      agent.rollback(options).catch((error: unknown) => error);

    const unknown = await attempt({
      threadId: 't',
      snapshotId: 'fs_00000000000000000000abcd',
      principal: 'ana',
    });
    expect(FileSnapshotError.isInstance(unknown) && unknown.reason).toBe('not_found');
    const traversal = await attempt({ threadId: 't', snapshotId: '../../etc/passwd', principal: 'ana' });
    expect(FileSnapshotError.isInstance(traversal) && traversal.reason).toBe('not_found');
    const byCall = await attempt({ threadId: 't', callId: 'no-such-call', principal: 'ana' });
    expect(FileSnapshotError.isInstance(byCall) && byCall.reason).toBe('not_found');
    expect(
      ThreadNotFoundError.isInstance(await attempt({ threadId: 't', snapshotId, principal: 'bob' })),
    ).toBe(true);
    expect(ThreadNotFoundError.isInstance(await attempt({ threadId: 'nope', snapshotId }))).toBe(true);

    // A corrupted record: refused as corrupt, the files stay as the call left them.
    const threadDir = join(base, 'snapshots', readdirSync(join(base, 'snapshots'))[0] as string);
    const recordPath = join(threadDir, snapshotId, 'record.json');
    const record = readFileSync(recordPath, 'utf8');
    writeFileSync(recordPath, record.replace('"notes.txt"', '"../outside.txt"'));
    const corrupt = await attempt({ threadId: 't', snapshotId, principal: 'ana' });
    expect(FileSnapshotError.isInstance(corrupt) && corrupt.reason).toBe('corrupt');
    expect((await agent.readThread('t')).fileSnapshots[0]?.status).toBe('corrupt');
    expectEdited();
    expect(existsSync(join(base, 'outside.txt'))).toBe(false);

    // Answering the question with rollback now says the rollback failed; nothing is lost.
    writeFileSync(recordPath, record.replace('"checksum":"', '"checksum":"0'));
    const answered = await agent.resume({
      threadId: 't',
      suspensionId: question.id,
      feedback: { decision: 'rollback' },
      principal: 'ana',
    });
    expect(answered.status).toBe('completed');
    expectEdited();
    // Repaired, the same snapshot rolls back.
    writeFileSync(recordPath, record);
    await agent.rollback({ threadId: 't', snapshotId, principal: 'ana' });
    expectOriginal();
  });

  it('offers the snapshot on the result of a turn the user stopped while the tool was changing files', async () => {
    const stop = new AbortController();
    const slowEdit = defineTool({
      name: 'edit_files',
      description: 'Rewrites a file, slowly.',
      input: z.object({ path: z.string() }),
      touches: { arguments: ['path'] },
      execute: async ({ path }, { signal }) => {
        writeFileSync(join(root, path), 'half written');
        stop.abort();
        await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
        throw new Error('stopped mid-write');
      },
    });
    const store = createSqliteStore({ path: join(base, 'stop.db') });
    stores.push(store);
    const agent = createAgent({
      model: createScriptedModel({
        steps: [
          { match: { phase: 'predict' }, json: { flow: 'edit_docs', slots: {} }, repeat: true },
          {
            match: { phase: 'skill' },
            toolCalls: [{ toolName: 'edit_files', callId: 'slow-1', input: { path: 'notes.txt' } }],
          },
        ],
      }),
      flows: [editDocs],
      tools: [slowEdit],
      store,
      clock,
      files: { root, snapshotDir: join(base, 'snapshots') },
      toolPipeline: { simulate: undefined },
    });
    const turn = await agent.send({ threadId: 't', text: 'rewrite my notes', signal: stop.signal });
    // A stopped turn ends with the summary of what was done (docs/decisions/0070), the snapshot offered.
    expect(turn.status).toBe('completed');
    expect(turn.reply).toMatch(/^Stopped as you asked/);
    expect(turn.fileSnapshots).toMatchObject([
      { callId: 'slow-1', toolName: 'edit_files', paths: ['notes.txt'] },
    ]);
    expect(['taken', 'failed']).toContain(turn.fileSnapshots?.[0]?.status);
    expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toBe('half written');
    const report = await agent.rollback({ threadId: 't', callId: 'slow-1' });
    expect(report.restored).toEqual(['notes.txt']);
    expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toBe('line one\nline two\n');
  });

  it('asks inside a plan item too, and the item goes on once the files are rolled back', async () => {
    const store = createSqliteStore({ path: join(base, 'plan.db') });
    stores.push(store);
    const agent = createAgent({
      model: createScriptedModel({
        steps: [
          { match: { phase: 'predict' }, json: { flow: 'plan', slots: {} }, repeat: true },
          {
            match: { phase: 'plan' },
            json: {
              title: 'Tidy the notes',
              items: [{ id: 'rewrite', description: 'Rewrite the notes', flow: 'edit_docs', slots: {} }],
            },
            repeat: true,
          },
          { match: { phase: 'replan' }, json: { decision: 'continue' }, repeat: true },
          { match: { phase: 'plan-review' }, json: { decision: 'finish' }, repeat: true },
          ...steps.slice(1),
          {
            match: { phase: 'synthesize' },
            json: { content: 'Nothing was changed in the end.', sources: [], suggestedQuestions: [] },
            repeat: true,
          },
        ],
      }),
      flows: [editDocs],
      tools: [createEditFilesTool(root)],
      store,
      clock,
      plan: { treeSearch: 'off' },
      files: { root, snapshotDir: join(base, 'snapshots') },
      toolPipeline: { simulate: undefined },
    });
    const turn = await agent.send({ threadId: 'p', text: 'tidy my notes' });
    expect(turn.status).toBe('suspended');
    const question = turn.suspensions?.[0];
    expect(question).toMatchObject({ kind: 'rollback', callId: 'edit-1' });
    expect(question?.fileSnapshotId).toMatch(/^fs_/);
    expectEdited();
    const after = await agent.resume({
      threadId: 'p',
      suspensionId: question?.id ?? '',
      feedback: { decision: 'rollback' },
    });
    expect(after.status).toBe('completed');
    expect(after.reply).toContain('Nothing was changed in the end.');
    expectOriginal();
  });

  it('keeps the newest snapshots of calls that worked, up to files.keep', async () => {
    const store = createSqliteStore({ path: join(base, 'keep.db') });
    stores.push(store);
    let edits = 0;
    const agent = createAgent({
      model: createScriptedModel({
        steps: [
          { match: { phase: 'predict' }, json: { flow: 'edit_docs', slots: {} }, repeat: true },
          {
            match: { phase: 'skill', prompt: (call) => call.prompt.at(-1)?.role !== 'tool' },
            respond: () => {
              edits += 1;
              const input = { edits: [{ path: 'notes.txt', text: `version ${edits}` }] };
              return { toolCalls: [{ toolName: 'edit_files', callId: `edit-${edits}`, input }] };
            },
            repeat: true,
          },
          { match: { phase: 'skill' }, text: 'Edited.', repeat: true },
        ],
      }),
      flows: [editDocs],
      tools: [createEditFilesTool(root)],
      store,
      clock,
      files: { root, snapshotDir: join(base, 'snapshots'), keep: { maxPerThread: 2, checkEveryMs: 0 } },
      toolPipeline: { simulate: undefined },
    });
    for (let n = 1; n <= 5; n++) await agent.send({ threadId: 'k', text: `edit the notes, take ${n}` });
    const kept = (await agent.readThread('k')).fileSnapshots.map((s) => [s.callId, s.status]);
    expect(kept).toEqual([
      ['edit-4', 'committed'],
      ['edit-5', 'committed'],
    ]);
    expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toBe('version 5');
    // What is kept can still be rolled back: to the text before the fifth edit.
    await agent.rollback({ threadId: 'k', callId: 'edit-5' });
    expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toBe('version 4');
  });

  it('refuses to roll back a call whose files a later call changed, unless forced', async () => {
    const store = createSqliteStore({ path: join(base, 'conflict.db') });
    stores.push(store);
    let edits = 0;
    const agent = createAgent({
      model: createScriptedModel({
        steps: [
          { match: { phase: 'predict' }, json: { flow: 'edit_docs', slots: {} }, repeat: true },
          {
            match: { phase: 'skill', prompt: (call) => call.prompt.at(-1)?.role !== 'tool' },
            respond: () => {
              edits += 1;
              const input = { edits: [{ path: 'notes.txt', text: `version ${edits}` }] };
              return { toolCalls: [{ toolName: 'edit_files', callId: `edit-${edits}`, input }] };
            },
            repeat: true,
          },
          { match: { phase: 'skill' }, text: 'Edited.', repeat: true },
        ],
      }),
      flows: [editDocs],
      tools: [createEditFilesTool(root)],
      store,
      clock,
      files: { root, snapshotDir: join(base, 'snapshots') },
      toolPipeline: { simulate: undefined },
    });
    await agent.send({ threadId: 'c', text: 'edit the notes' });
    await agent.send({ threadId: 'c', text: 'edit them again' });
    const error = await agent
      .rollback({ threadId: 'c', callId: 'edit-1' })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'FileSnapshotError', reason: 'conflict' });
    expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toBe('version 2');
    await agent.rollback({ threadId: 'c', callId: 'edit-1', force: true });
    expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toBe('line one\nline two\n');
  });

  it('refuses a retention that makes no sense when the agent is created', () => {
    const make = (keep: { maxAgeMs?: number; maxPerThread?: number }) => () =>
      createAgent({
        model: createScriptedModel({ steps }),
        flows: [editDocs],
        tools: [createEditFilesTool(root)],
        store: createSqliteStore({ path: join(base, 'refused.db') }),
        files: { root, keep },
      });
    expect(make({ maxPerThread: 0 })).toThrow(/maxPerThread must be a whole number of at least 1/);
    expect(make({ maxAgeMs: -5 })).toThrow(/maxAgeMs must be a positive number/);
  });
});

describe('sweeping file snapshots of threads that take no new ones', () => {
  const day = 24 * 60 * 60 * 1000;
  const editOnce: ScriptStep[] = [
    { match: { phase: 'predict' }, json: { flow: 'edit_docs', slots: {} }, repeat: true },
    {
      match: { phase: 'skill', prompt: (call) => !call.prompt.some((m) => m.role === 'tool') },
      toolCalls: [
        { toolName: 'edit_files', callId: 'edit-1', input: { edits: [{ path: 'notes.txt', text: 'new' }] } },
      ],
    },
    { match: { phase: 'skill' }, text: 'Edited.', repeat: true },
  ];

  function agentAt(now: number, keep?: false) {
    const store = createSqliteStore({ path: join(base, 'sweep.db') });
    stores.push(store);
    return createAgent({
      model: createScriptedModel({ steps: editOnce }),
      flows: [editDocs],
      tools: [createEditFilesTool(root)],
      store,
      clock: { now: () => now, sleep: () => new Promise(() => {}) },
      files: { root, snapshotDir: join(base, 'snapshots'), ...(keep === false ? { keep } : {}) },
      toolPipeline: { simulate: undefined },
    });
  }

  it('removes a settled snapshot past the default 30 days, and nothing when retention is off', async () => {
    const first = agentAt(1 * day);
    const turn = await first.send({ threadId: 'quiet', text: 'edit my notes' });
    expect(turn.status).toBe('completed');
    expect((await first.readThread('quiet')).fileSnapshots.map((s) => s.status)).toEqual(['committed']);
    // Forty days on, the thread never took another snapshot, so no call checked it.
    expect(await agentAt(41 * day, false).sweepFileSnapshots()).toEqual({
      threads: 0,
      removed: 0,
      failed: [],
    });
    expect((await first.readThread('quiet')).fileSnapshots).toHaveLength(1);
    const later = agentAt(41 * day);
    expect(await later.sweepFileSnapshots()).toEqual({ threads: 1, removed: 1, failed: [] });
    expect((await later.readThread('quiet')).fileSnapshots).toEqual([]);
    expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toBe('new');
  });
});
