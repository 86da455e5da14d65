/**
 * Deleting a thread through the library (docs/decisions/0076): after a conversation that changed a file
 * and left a schedule, `agent.deleteThread` leaves no byte of what the thread said in the SQLite folder
 * (database, -wal, -shm) or the snapshot folder, no row of it but its audit rows, whose summaries are
 * erased — while another thread in the same files is untouched. Only the owner can delete it.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { ThreadBusyError, ThreadNotFoundError } from '../errors/index.js';
import { defineFlow } from '../flow/index.js';
import { deletedThreadMark } from '../spec/index.js';
import { createSqliteStore } from '../store/index.js';
import { createScriptedModel } from '../test/index.js';
import { createEditFilesTool } from '../tool/fixtures/edit-files-tool.js';
import { createAgent } from './index.js';

const editNotes = defineFlow({
  name: 'edit_notes',
  intent: 'transform',
  description: 'Edit the notes the user names.',
  slots: [],
  tools: ['edit_files'],
  skill: 'Write the notes with edit_files.',
});

/** Every byte under a folder, as text to search. */
function bytesUnder(dir: string): string {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .map((path) => readFileSync(path).toString('latin1'))
    .join('\n');
}

function setUp() {
  const base = mkdtempSync(join(tmpdir(), 'flowstack-delete-'));
  const root = join(base, 'work');
  mkdirSync(root);
  writeFileSync(join(root, 'kitchen.txt'), 'ORIGINAL-FIG-42');
  writeFileSync(join(root, 'pantry.txt'), 'ORIGINAL-PEAR-55');
  const edit = (file: string, word: string) => ({
    match: {
      phase: 'skill' as const,
      prompt: (call: { prompt: { role: string; content: unknown }[] }) =>
        JSON.stringify(call.prompt).includes(word) && !call.prompt.some((m) => m.role === 'tool'),
    },
    toolCalls: [{ toolName: 'edit_files', input: { edits: [{ path: file, text: `${word} written` }] } }],
    repeat: true,
  });
  const model = createScriptedModel({
    steps: [
      { match: { phase: 'predict' }, json: { flow: 'edit_notes', slots: {} }, repeat: true },
      edit('kitchen.txt', 'QUINCE-MARMALADE-77'),
      edit('pantry.txt', 'PANTRY-PLUM-13'),
      { match: { phase: 'skill' }, text: 'Your notes are written.', repeat: true },
    ],
  });
  const dbDir = join(base, 'db');
  const snapshotDir = join(base, 'snapshots');
  const store = createSqliteStore({ path: join(dbDir, 'agent.db') });
  const agent = createAgent({
    model,
    flows: [editNotes],
    // Controlled, so that its calls are in the audit log.
    tools: [{ ...createEditFilesTool(root), capability: 'controlled' as const }],
    store,
    files: { root, snapshotDir },
    toolPipeline: { simulate: undefined },
  });
  return { agent, store, dbDir, snapshotDir, path: join(dbDir, 'agent.db') };
}

describe('agent.deleteThread', () => {
  it('leaves no byte of the thread in the SQLite folder or the snapshot folder, and keeps the other thread', async () => {
    const { agent, store, dbDir, snapshotDir, path } = setUp();
    const kitchen = await agent.send({
      threadId: 'kitchen',
      text: 'note QUINCE-MARMALADE-77 in the kitchen file',
      principal: 'ana',
    });
    expect(kitchen.reply).toBe('Your notes are written.');
    await agent.send({
      threadId: 'pantry',
      text: 'note PANTRY-PLUM-13 in the pantry file',
      principal: 'ana',
    });
    await store.saveSchedule?.({
      specVersion: 1,
      id: 'kitchen-reminder',
      threadId: 'kitchen',
      text: 'remind me of QUINCE-MARMALADE-77',
      everyMs: 60_000,
      nextRunAt: 1,
      runs: 0,
      createdAt: 1,
    });
    expect((await agent.readThread('kitchen')).fileSnapshots).toHaveLength(1);
    expect(bytesUnder(dbDir)).toContain('QUINCE-MARMALADE-77');
    expect(bytesUnder(snapshotDir)).toContain('ORIGINAL-FIG-42');

    // Another principal cannot delete it, and learns nothing: the same answer as an unknown thread.
    await expect(agent.deleteThread({ threadId: 'kitchen', principal: 'eve' })).rejects.toThrow(
      ThreadNotFoundError,
    );
    expect(await agent.deleteThread({ threadId: 'kitchen', principal: 'ana' })).toEqual({
      threadId: 'kitchen',
      fileSnapshots: 1,
    });
    await expect(agent.readThread('kitchen')).rejects.toThrow(ThreadNotFoundError);
    await expect(agent.deleteThread({ threadId: 'kitchen', principal: 'ana' })).rejects.toThrow(
      ThreadNotFoundError,
    );
    expect((await agent.readThread('pantry')).fileSnapshots).toHaveLength(1);
    expect((await store.listSchedules?.())?.map((entry) => entry.id)).toEqual([]);
    await agent.close();

    const db = new Database(path, { readonly: true });
    for (const table of ['threads', 'history', 'observations', 'leases', 'journal']) {
      const count = db.prepare(`SELECT count(*) AS n FROM ${table} WHERE thread_id = ?`).get('kitchen') as {
        n: number;
      };
      expect(count.n, table).toBe(0);
    }
    const audit = db
      .prepare('SELECT tool_name, input_summary, output_summary FROM audit WHERE thread_id = ?')
      .all('kitchen') as { tool_name: string; input_summary: string; output_summary: string | null }[];
    db.close();
    expect(audit.length).toBeGreaterThan(0);
    for (const row of audit) {
      expect(row.tool_name).toBe('edit_files');
      expect(row.input_summary).toBe(deletedThreadMark);
      expect([deletedThreadMark, null]).toContain(row.output_summary);
    }

    const stored = bytesUnder(dbDir);
    expect(stored).not.toContain('QUINCE-MARMALADE-77');
    expect(stored).toContain('PANTRY-PLUM-13');
    const snapshots = bytesUnder(snapshotDir);
    expect(snapshots).not.toContain('ORIGINAL-FIG-42');
    expect(snapshots).not.toContain('kitchen');
    expect(snapshots).toContain('ORIGINAL-PEAR-55');
  });

  it('deletes a thread whose snapshot cannot be read, and only for its owner', async () => {
    const { agent, store } = setUp();
    await agent.send({ threadId: 'kitchen', text: 'note QUINCE-MARMALADE-77 here', principal: 'ana' });
    const stored = await store.loadThread('kitchen');
    await store.commit({
      threadId: 'kitchen',
      expectedVersion: stored?.version ?? 0,
      data: '{"schemaVersion": 1, "stack": [',
      principal: 'ana',
      now: Date.now(),
    });
    await expect(agent.readThread('kitchen')).rejects.toThrow();
    await expect(agent.deleteThread({ threadId: 'kitchen', principal: 'eve' })).rejects.toThrow(
      ThreadNotFoundError,
    );
    expect(await agent.deleteThread({ threadId: 'kitchen', principal: 'ana' })).toMatchObject({
      threadId: 'kitchen',
    });
    expect(await store.loadThread('kitchen')).toBeUndefined();
    await agent.close();
  });

  it('refuses while a turn of the thread holds its lease, and deletes nothing', async () => {
    const { agent, store } = setUp();
    await agent.send({ threadId: 'kitchen', text: 'note QUINCE-MARMALADE-77 here', principal: 'ana' });
    expect(
      await store.acquireLease({
        threadId: 'kitchen',
        owner: 'other-worker',
        ttlMs: 60_000,
        now: Date.now(),
      }),
    ).toBe(true);
    await expect(agent.deleteThread({ threadId: 'kitchen', principal: 'ana' })).rejects.toThrow(
      ThreadBusyError,
    );
    expect((await agent.readThread('kitchen')).messages.length).toBeGreaterThan(0);
    await agent.close();
  });
});
