import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createDirectorySnapshotStore,
  type FileSnapshotService,
  listFileSnapshots,
  rollbackFileSnapshot,
} from '../../consistency/index.js';
import { ConfigurationError } from '../../errors/index.js';
import { defineTool } from '../define-tool.js';
import { executeToolBatch } from '../execute-tool-batch.js';
import { call, createTestContext } from '../fixtures/batch-context.js';
import { createEditFilesTool } from '../fixtures/edit-files-tool.js';
import { loadManifest } from '../load-manifest.js';

let root: string;
let files: FileSnapshotService;
const binary = randomBytes(1024);

beforeEach(() => {
  const base = mkdtempSync(join(tmpdir(), 'flowstack-snapshot-stage-'));
  root = join(base, 'work');
  mkdirSync(root);
  writeFileSync(join(root, 'a.txt'), 'alpha');
  writeFileSync(join(root, 'b.bin'), binary);
  files = { root, store: createDirectorySnapshotStore({ dir: join(base, 'snapshots') }) };
});

const edits = (failAfter?: number) => ({
  edits: [
    { path: 'a.txt', text: 'ALPHA' },
    { path: 'b.bin', base64: Buffer.from('garbage').toString('base64') },
    { path: 'made/c.txt', text: 'new' },
  ],
  ...(failAfter !== undefined ? { failAfter } : {}),
});

describe('snapshot-files stage (through executeToolBatch)', () => {
  it('asks to roll back a call that failed half-way, and the snapshot restores every byte', async () => {
    const context = createTestContext([createEditFilesTool(root)], { files });
    const [result] = await executeToolBatch([call('edit_files', edits(2), 'c1')], context);
    expect(result).toMatchObject({
      status: 'suspended',
      kind: 'rollback',
      idempotencyKey: 'thread-1:turn-1:c1',
      failure: { category: 'server_error', message: 'disk full after 2 of 3 files' },
    });
    const question = result as Extract<typeof result, { status: 'suspended' }>;
    expect(question.reason).toContain('a.txt, b.bin');
    expect(question.reason).not.toContain('made/c.txt');
    // The question is journaled, so a replayed step asks again instead of running the tool.
    expect((await context.store?.readJournal('thread-1:turn-1:c1'))?.status).toBe('suspended');
    const [again] = await executeToolBatch([call('edit_files', edits(2), 'c1')], context);
    expect(again).toEqual(result);

    const summaries = await listFileSnapshots(files.store, 'thread-1');
    expect(summaries).toMatchObject([
      {
        id: question.fileSnapshotId,
        callId: 'c1',
        status: 'failed',
        paths: ['a.txt', 'b.bin', 'made/c.txt'],
      },
    ]);
    await rollbackFileSnapshot({
      service: files,
      threadId: 'thread-1',
      snapshotId: question.fileSnapshotId as string,
      now: () => 5,
    });
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('alpha');
    expect(readFileSync(join(root, 'b.bin')).equals(binary)).toBe(true);
    expect(existsSync(join(root, 'made'))).toBe(false);
  });

  it('commits the snapshot of a call that succeeded, and returns a failure that changed nothing as it is', async () => {
    const context = createTestContext([createEditFilesTool(root)], { files });
    const [ok] = await executeToolBatch([call('edit_files', edits(), 'ok')], context);
    expect(ok?.status).toBe('success');
    const [nothing] = await executeToolBatch([call('edit_files', edits(0), 'none')], context);
    expect(nothing).toMatchObject({ status: 'error', error: { message: 'disk full after 0 of 3 files' } });
    expect((await listFileSnapshots(files.store, 'thread-1')).map((s) => [s.callId, s.status])).toEqual([
      ['ok', 'committed'],
      ['none', 'failed'],
    ]);
  });

  it('refuses a path outside the root, or any call without a snapshot store, before the tool runs', async () => {
    let runs = 0;
    const tool = defineTool({
      name: 'write_file',
      description: 'Writes a file.',
      input: z.object({ path: z.string() }),
      touches: { arguments: ['path'] },
      execute: () => {
        runs += 1;
        return 'done';
      },
    });
    const context = createTestContext([tool], { files });
    for (const path of ['../escape.txt', '/etc/passwd', 'x/../../escape.txt']) {
      const [result] = await executeToolBatch([call('write_file', { path }, `c-${path}`)], context);
      expect(result).toMatchObject({ status: 'error', error: { category: 'validation_error' } });
      expect((result as { contextText: string }).contextText).toContain('did not run');
    }
    const [bare] = await executeToolBatch([call('write_file', { path: 'a.txt' })], createTestContext([tool]));
    expect(bare).toMatchObject({ status: 'error', error: { category: 'server_error' } });
    expect(runs).toBe(0);
  });

  it('checks the declaration when the tool is defined', () => {
    const define = (touches: unknown) =>
      defineTool({
        name: 't',
        description: 'd',
        input: z.object({ path: z.string() }),
        touches: touches as { arguments: string[] },
        execute: () => 'x',
      });
    expect(() => define({ arguments: [] })).toThrow(ConfigurationError);
    expect(() => define({ arguments: ['a..b'] })).toThrow(ConfigurationError);
    expect(define({ arguments: ['path', 'edits.*.path'] }).touches).toEqual({
      arguments: ['path', 'edits.*.path'],
    });
    expect(() => define({})).toThrow(ConfigurationError);
    expect(() => define({ paths: ['../outside.json'] })).toThrow(ConfigurationError);
    expect(() => define({ paths: ['/etc/passwd'] })).toThrow(ConfigurationError);
    expect(define({ paths: ['ledger/bookings.json'] }).touches).toEqual({ paths: ['ledger/bookings.json'] });
  });

  it('reads touches from a manifest, and refuses a manifest whose selectors or paths are malformed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowstack-touches-'));
    const write = (touches: string) => {
      const path = join(dir, `tools-${touches.length}.yaml`);
      writeFileSync(
        path,
        [
          'version: 1',
          'tools:',
          '  - name: save_note',
          '    description: Saves a note to a file.',
          '    timeoutMs: 1000',
          '    inputSchema: { type: object, properties: { file: { type: string } } }',
          `    touches: ${touches}`,
        ].join('\n'),
      );
      return path;
    };
    const implementations = { save_note: () => 'saved' };
    const [tool] = await loadManifest(write('{ arguments: [file] }'), { implementations });
    expect(tool?.touches).toEqual({ arguments: ['file'] });
    await expect(loadManifest(write('{ arguments: [] }'), { implementations })).rejects.toThrow(
      ConfigurationError,
    );
    const [fixed] = await loadManifest(write('{ paths: [notes/today.md] }'), { implementations });
    expect(fixed?.touches).toEqual({ paths: ['notes/today.md'] });
    await expect(loadManifest(write('{ paths: [../x.md] }'), { implementations })).rejects.toThrow(
      ConfigurationError,
    );
    await expect(loadManifest(write('{ files: [x.md] }'), { implementations })).rejects.toThrow();
  });

  it('runs calls that change files one at a time, even in a parallel group', async () => {
    let running = 0;
    let most = 0;
    const append = defineTool({
      name: 'append_line',
      description: 'Appends a line to a file.',
      input: z.object({ path: z.string(), line: z.string() }),
      idempotent: true,
      parallel: true,
      touches: { arguments: ['path'] },
      execute: async ({ path, line }) => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setImmediate(resolve));
        writeFileSync(join(root, path), `${readFileSync(join(root, path), 'utf8')}${line}`);
        running -= 1;
        return 'ok';
      },
    });
    const context = createTestContext([append], { files });
    const calls = ['1', '2', '3'].map((line) => ({
      ...call('append_line', { path: 'a.txt', line }, `c${line}`),
      parallelGroup: 'g',
    }));
    const results = await executeToolBatch(calls, context);
    expect(results.map((r) => r.status)).toEqual(['success', 'success', 'success']);
    expect(most).toBe(1);
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('alpha123');
    // Each snapshot holds the file as it was just before its own call; undoing the second call while the
    // third's line is there would lose it too, so newest first.
    const snapshots = await listFileSnapshots(files.store, 'thread-1');
    const undo = (callId: string) =>
      rollbackFileSnapshot({
        service: files,
        threadId: 'thread-1',
        snapshotId: snapshots.find((s) => s.callId === callId)?.id ?? '',
        now: () => 1,
      });
    await expect(undo('c2')).rejects.toMatchObject({ reason: 'conflict' });
    await undo('c3');
    await undo('c2');
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('alpha1');
  });
});
