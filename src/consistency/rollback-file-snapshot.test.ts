import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { FileSnapshotError } from '../errors/index.js';
import { createDirectorySnapshotStore } from './create-directory-snapshot-store.js';
import type { FileSnapshotService } from './file-snapshot-service.js';
import { listChangedFiles } from './list-changed-files.js';
import { listFileSnapshots } from './list-file-snapshots.js';
import { rollbackFileSnapshot } from './rollback-file-snapshot.js';
import { takeFileSnapshot } from './take-file-snapshot.js';
import { nodeWorkspaceFiles, type WorkspaceFiles } from './workspace-files.js';

let root: string;
let snapshots: string;
let service: FileSnapshotService;
const binary = randomBytes(4096);
const now = () => 1_000;

beforeEach(() => {
  const base = mkdtempSync(join(tmpdir(), 'flowstack-consistency-'));
  root = join(base, 'work');
  snapshots = join(base, 'snapshots');
  mkdirSync(root);
  writeFileSync(join(root, 'notes.txt'), 'first line\nsecond line\n');
  writeFileSync(join(root, 'image.bin'), binary);
  chmodSync(join(root, 'image.bin'), 0o640);
  service = { root, store: createDirectorySnapshotStore({ dir: snapshots }) };
});

const take = (paths: string[], callId = 'c1') =>
  takeFileSnapshot({
    service,
    threadId: 't1',
    turnId: 'turn1',
    callId,
    toolName: 'edit_files',
    idempotencyKey: `t1:turn1:${callId}`,
    paths,
    now: 1_000,
  });

/** What a tool does: overwrite text, scribble over binary, chmod, create a file in new folders. */
function edit() {
  writeFileSync(join(root, 'notes.txt'), 'changed');
  writeFileSync(join(root, 'image.bin'), Buffer.from('not an image'));
  chmodSync(join(root, 'image.bin'), 0o600);
  mkdirSync(join(root, 'out/deep'), { recursive: true });
  writeFileSync(join(root, 'out/deep/new.txt'), 'created');
}

function expectOriginal() {
  expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toBe('first line\nsecond line\n');
  expect(readFileSync(join(root, 'image.bin')).equals(binary)).toBe(true);
  expect(statSync(join(root, 'image.bin')).mode & 0o777).toBe(0o640);
  expect(existsSync(join(root, 'out'))).toBe(false);
}

describe('file snapshots and rollback', () => {
  it('restores every byte and mode, removes the created file and its folders, and is idempotent', async () => {
    const record = await take(['notes.txt', 'image.bin', 'out/deep/new.txt', './notes.txt']);
    expect(record.files.map((f) => f.path)).toEqual(['notes.txt', 'image.bin', 'out/deep/new.txt']);
    edit();
    expect(await listChangedFiles(service, record)).toEqual(['notes.txt', 'image.bin', 'out/deep/new.txt']);
    const report = await rollbackFileSnapshot({ service, threadId: 't1', snapshotId: record.id, now });
    expect(report).toEqual({
      snapshotId: record.id,
      threadId: 't1',
      callId: 'c1',
      toolName: 'edit_files',
      status: 'rolled-back',
      restored: ['notes.txt', 'image.bin'],
      removed: ['out/deep/new.txt'],
    });
    expectOriginal();
    expect(await listChangedFiles(service, record)).toEqual([]);
    expect(await rollbackFileSnapshot({ service, threadId: 't1', snapshotId: record.id, now })).toEqual(
      report,
    );
    expectOriginal();
    expect(await listFileSnapshots(service.store, 't1')).toEqual([
      {
        id: record.id,
        callId: 'c1',
        toolName: 'edit_files',
        status: 'rolled-back',
        paths: ['notes.txt', 'image.bin', 'out/deep/new.txt'],
        createdAt: 1_000,
      },
    ]);
  });

  it('clears what a save killed half-way left, and saves the snapshot whole', async () => {
    const record = await take(['notes.txt']);
    const folder = readdirSync(snapshots)[0] as string;
    rmSync(join(snapshots, folder), { recursive: true });
    mkdirSync(join(snapshots, folder, `.building-${record.id}-abc`), { recursive: true });
    writeFileSync(join(snapshots, folder, `.building-${record.id}-abc`, 'c0'), 'partial');
    expect(await listFileSnapshots(service.store, 't1')).toEqual([]);
    await take(['notes.txt']);
    expect(readdirSync(join(snapshots, folder))).toEqual([record.id]);
  });

  it('keeps the first snapshot of a call that runs again', async () => {
    const first = await take(['notes.txt']);
    writeFileSync(join(root, 'notes.txt'), 'half-done');
    const again = await take(['notes.txt']);
    expect(again).toEqual(first);
    await rollbackFileSnapshot({ service, threadId: 't1', snapshotId: first.id, now });
    expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toBe('first line\nsecond line\n');
  });

  it('carries on from the first step not recorded when a rollback stops half-way', async () => {
    const record = await take(['notes.txt', 'image.bin', 'out/deep/new.txt']);
    edit();
    let writes = 0;
    const failing: WorkspaceFiles = {
      ...nodeWorkspaceFiles,
      write: async (path, bytes, mode) => {
        writes += 1;
        if (writes === 2) throw new Error('disk went away');
        await nodeWorkspaceFiles.write(path, bytes, mode);
      },
    };
    await expect(
      rollbackFileSnapshot({
        service: { ...service, workspace: failing },
        threadId: 't1',
        snapshotId: record.id,
        now,
      }),
    ).rejects.toThrow('disk went away');
    expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toBe('first line\nsecond line\n');
    expect((await listFileSnapshots(service.store, 't1'))[0]?.status).toBe('rolling-back');
    const report = await rollbackFileSnapshot({ service, threadId: 't1', snapshotId: record.id, now });
    expect(report.restored).toEqual(['notes.txt', 'image.bin']);
    expectOriginal();
  });

  it('refuses paths outside the root, through .., absolute or a symbolic link, before writing anything', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'flowstack-outside-'));
    writeFileSync(join(outside, 'secret.txt'), 'keep');
    symlinkSync(outside, join(root, 'link'));
    for (const path of [
      '../x.txt',
      join(outside, 'secret.txt'),
      'link/secret.txt',
      'a/../../x',
      '',
      'a\0b',
    ]) {
      const error = await take(['notes.txt', path]).catch((e: unknown) => e);
      expect(FileSnapshotError.isInstance(error), path).toBe(true);
      expect((error as FileSnapshotError).reason).toBe('outside_root');
    }
    const folder = await take(['out-folder/..', 'link']).catch((e: unknown) => e);
    expect((folder as FileSnapshotError).reason).toBe('outside_root');
    mkdirSync(join(root, 'dir'));
    expect(((await take(['dir']).catch((e: unknown) => e)) as FileSnapshotError).reason).toBe('not_a_file');
    expect(existsSync(snapshots)).toBe(false);
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('keep');
  });

  it('answers an unknown or malformed snapshot id, or another thread, with not_found', async () => {
    const record = await take(['notes.txt']);
    for (const [threadId, snapshotId] of [
      ['t1', 'fs_ffffffffffffffffffffffff'],
      ['t1', '../../etc'],
      ['t2', record.id],
    ] as const) {
      const error = await rollbackFileSnapshot({ service, threadId, snapshotId, now }).catch(
        (e: unknown) => e,
      );
      expect(FileSnapshotError.isInstance(error)).toBe(true);
      expect((error as FileSnapshotError).reason).toBe('not_found');
    }
  });

  it('refuses a corrupted record, content or journal as corrupt and leaves the files as they are', async () => {
    const record = await take(['notes.txt', 'image.bin']);
    edit();
    const folder = join(snapshots, readdirSync(snapshots)[0] as string, record.id);
    const attempt = () =>
      rollbackFileSnapshot({ service, threadId: 't1', snapshotId: record.id, now }).catch((e: unknown) => e);
    const recordText = readFileSync(join(folder, 'record.json'), 'utf8');

    writeFileSync(join(folder, 'record.json'), recordText.replace('"mode":416', '"mode":511'));
    expect(((await attempt()) as FileSnapshotError).reason).toBe('corrupt');
    writeFileSync(join(folder, 'record.json'), '{"specVersion":1,');
    expect(((await attempt()) as FileSnapshotError).reason).toBe('corrupt');
    writeFileSync(join(folder, 'record.json'), recordText);

    const content = readFileSync(join(folder, 'c1'));
    writeFileSync(join(folder, 'c1'), Buffer.concat([content.subarray(0, 10), Buffer.from('x')]));
    expect(((await attempt()) as FileSnapshotError).reason).toBe('corrupt');
    writeFileSync(join(folder, 'c1'), content);

    writeFileSync(join(folder, 'events.jsonl'), 'not json\n');
    expect(((await attempt()) as FileSnapshotError).reason).toBe('corrupt');
    expect((await listFileSnapshots(service.store, 't1'))[0]?.status).toBe('corrupt');

    // Nothing was touched by the refused attempts: the edits are still there.
    expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toBe('changed');
    // A journal line cut short by a crash never happened.
    writeFileSync(join(folder, 'events.jsonl'), '{"type":"status","status":"fai');
    await attempt();
    expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toBe('first line\nsecond line\n');
    expect(readFileSync(join(root, 'image.bin')).equals(binary)).toBe(true);
  });
});
