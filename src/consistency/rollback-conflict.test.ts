import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { FileSnapshotError } from '../errors/index.js';
import { createDirectorySnapshotStore } from './create-directory-snapshot-store.js';
import type { FileSnapshotService } from './file-snapshot-service.js';
import { fingerprintFiles } from './fingerprint-files.js';
import { rollbackFileSnapshot } from './rollback-file-snapshot.js';
import { takeFileSnapshot } from './take-file-snapshot.js';
import { nodeWorkspaceFiles, type WorkspaceFiles } from './workspace-files.js';

let root: string;
let service: FileSnapshotService;
const now = () => 5_000;
const ledger = () => readFileSync(join(root, 'ledger.csv'), 'utf8');

beforeEach(() => {
  const base = mkdtempSync(join(tmpdir(), 'flowstack-conflict-'));
  root = join(base, 'work');
  mkdirSync(root);
  writeFileSync(join(root, 'ledger.csv'), 'opening\n');
  service = { root, store: createDirectorySnapshotStore({ dir: join(base, 'snapshots') }) };
});

/** A call as the pipeline runs it: snapshot, the change, then the status with the files as it left them. */
async function call(callId: string, change: () => void, recordAfter = true) {
  const record = await takeFileSnapshot({
    service,
    threadId: 't1',
    turnId: 'turn1',
    callId,
    toolName: 'append_ledger',
    idempotencyKey: `t1:turn1:${callId}`,
    paths: ['ledger.csv'],
    now: 1_000,
  });
  change();
  const after = recordAfter ? await fingerprintFiles(service, record) : undefined;
  await service.store.append('t1', record.id, {
    type: 'status',
    status: 'committed',
    at: 2_000,
    ...(after ? { after } : {}),
  });
  return record.id;
}

const rollback = (snapshotId: string, force?: boolean) =>
  rollbackFileSnapshot({ service, threadId: 't1', snapshotId, now, ...(force ? { force } : {}) });

describe('rolling back over later changes', () => {
  it('refuses with conflict when a later call changed the file, and changes nothing', async () => {
    const first = await call('c1', () => writeFileSync(join(root, 'ledger.csv'), 'opening\npaid 10\n'));
    await call('c2', () => writeFileSync(join(root, 'ledger.csv'), 'opening\npaid 10\npaid 20\n'));
    const error = await rollback(first).catch((caught: unknown) => caught);
    expect(FileSnapshotError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'conflict', code: 'file_snapshot_conflict', path: 'ledger.csv' });
    expect((error as Error).message).toMatch(/'ledger\.csv' changed after the call/);
    expect(ledger()).toBe('opening\npaid 10\npaid 20\n');
  });

  it('rolls back newest first without conflict, and force overwrites the later change when asked', async () => {
    const first = await call('c1', () => writeFileSync(join(root, 'ledger.csv'), 'opening\npaid 10\n'));
    const second = await call('c2', () =>
      writeFileSync(join(root, 'ledger.csv'), 'opening\npaid 10\npaid 20\n'),
    );
    await rollback(second);
    expect(ledger()).toBe('opening\npaid 10\n');
    await rollback(first);
    expect(ledger()).toBe('opening\n');

    const third = await call('c3', () => writeFileSync(join(root, 'ledger.csv'), 'opening\npaid 30\n'));
    writeFileSync(join(root, 'ledger.csv'), 'opening\npaid 30\nedited by hand\n');
    await expect(rollback(third)).rejects.toMatchObject({ reason: 'conflict' });
    await rollback(third, true);
    expect(ledger()).toBe('opening\n');
  });

  it('counts a deleted file as a change, but not the same bytes written again', async () => {
    const first = await call('c1', () => writeFileSync(join(root, 'ledger.csv'), 'opening\npaid 10\n'));
    writeFileSync(join(root, 'ledger.csv'), 'opening\npaid 10\n');
    await rollback(first);
    expect(ledger()).toBe('opening\n');
    const second = await call('c2', () => writeFileSync(join(root, 'ledger.csv'), 'opening\npaid 20\n'));
    rmSync(join(root, 'ledger.csv'));
    await expect(rollback(second)).rejects.toMatchObject({ reason: 'conflict' });
  });

  it('finishes a rollback a crash interrupted, although the files no longer look as the call left them', async () => {
    const first = await call('c1', () => writeFileSync(join(root, 'ledger.csv'), 'opening\npaid 10\n'));
    // A second file makes a rollback of two steps; the process dies after the first one.
    let writes = 0;
    const dying: WorkspaceFiles = {
      ...nodeWorkspaceFiles,
      write: async (path, bytes, mode) => {
        writes += 1;
        await nodeWorkspaceFiles.write(path, bytes, mode);
        throw new Error('killed');
      },
    };
    await expect(
      rollbackFileSnapshot({
        service: { ...service, workspace: dying },
        threadId: 't1',
        snapshotId: first,
        now,
      }),
    ).rejects.toThrow('killed');
    expect(writes).toBe(1);
    expect(ledger()).toBe('opening\n');
    // The files differ from what the call left (they are restored already): the rollback still finishes.
    await expect(rollback(first)).resolves.toMatchObject({ status: 'rolled-back', restored: ['ledger.csv'] });
  });

  it('rolls back a snapshot written before the files were recorded after the call, as before', async () => {
    const old = await call('c1', () => writeFileSync(join(root, 'ledger.csv'), 'opening\npaid 10\n'), false);
    writeFileSync(join(root, 'ledger.csv'), 'changed later');
    await rollback(old);
    expect(ledger()).toBe('opening\n');
  });
});
