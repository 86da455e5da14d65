/**
 * Rollback under attack (issue 31 item 7, docs/decisions/0077): a folder swapped for a link to a folder
 * outside the root while rollbacks run — raced from another thread, 40 times — sends no byte outside the
 * root; a hard link to a file outside the root is refused when snapshotting and when restoring, and the
 * outside file is left as it was.
 */
import {
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { beforeEach, describe, expect, it } from 'vitest';
import { FileSnapshotError } from '../errors/index.js';
import { createDirectorySnapshotStore } from './create-directory-snapshot-store.js';
import type { FileSnapshotService } from './file-snapshot-service.js';
import { rollbackFileSnapshot } from './rollback-file-snapshot.js';
import { takeFileSnapshot } from './take-file-snapshot.js';

let base: string;
let root: string;
let outside: string;
let service: FileSnapshotService;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'flowstack-rollback-attack-'));
  root = join(base, 'work');
  outside = join(base, 'outside');
  mkdirSync(join(root, 'docs'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.txt'), 'outside, keep me');
  service = { root, store: createDirectorySnapshotStore({ dir: join(base, 'snapshots') }) };
});

const take = (path: string, callId: string) =>
  takeFileSnapshot({
    service,
    threadId: 't1',
    turnId: 'turn1',
    callId,
    toolName: 'edit_files',
    idempotencyKey: `t1:turn1:${callId}`,
    paths: [path],
    now: 1_000,
  });

const rollback = (snapshotId: string) =>
  rollbackFileSnapshot({ service, threadId: 't1', snapshotId, now: () => 2_000 });

/**
 * Swaps `docs` for a link to the outside folder and back, as fast as it can, on another thread until
 * told to stop. A step fails when a rollback made the folder again meanwhile; the next round moves
 * whatever is there away and carries on.
 */
async function startSwapping(): Promise<{ stop(): Promise<void> }> {
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(
    `
    const { workerData, parentPort } = require('node:worker_threads');
    const fs = require('node:fs');
    const { docs, parked, outside } = workerData;
    const flag = new Int32Array(workerData.flag);
    const attempt = (step) => { try { step(); } catch {} };
    for (let round = 0; Atomics.load(flag, 0) === 0; round++) {
      const away = parked + '-' + round;
      attempt(() => fs.renameSync(docs, away));
      attempt(() => fs.symlinkSync(outside, docs));
      attempt(() => { if (fs.lstatSync(docs).isSymbolicLink()) fs.unlinkSync(docs); });
      attempt(() => fs.renameSync(away, docs));
      if (round === 0) parentPort.postMessage('swapping');
    }
    `,
    {
      eval: true,
      workerData: {
        docs: join(root, 'docs'),
        parked: join(base, 'parked-docs'),
        outside,
        flag: flag.buffer,
      },
    },
  );
  await new Promise((resolve) => worker.once('message', resolve));
  return {
    async stop() {
      Atomics.store(flag, 0, 1);
      await new Promise((resolve) => worker.once('exit', resolve));
    },
  };
}

describe('rollback under attack', () => {
  it('writes nothing outside the root while a folder on the way is swapped for a link (40 rollbacks)', async () => {
    const rounds = 40;
    const snapshotIds: string[] = [];
    for (let round = 0; round < rounds; round++) {
      writeFileSync(join(root, 'docs', `page-${round}.txt`), `page ${round} as it was`);
      snapshotIds.push((await take(`docs/page-${round}.txt`, `c${round}`)).id);
    }
    const swapper = await startSwapping();
    const outcomes: string[] = [];
    try {
      for (const snapshotId of snapshotIds) {
        await rollback(snapshotId).then(
          () => outcomes.push('restored'),
          (error: unknown) =>
            outcomes.push(
              FileSnapshotError.isInstance(error) ? `refused:${error.reason}` : `failed:${error}`,
            ),
        );
      }
    } finally {
      await swapper.stop();
    }
    expect(outcomes).toHaveLength(rounds);
    // The outside folder holds exactly what it held: no restored page, no temporary file.
    expect(readdirSync(outside)).toEqual(['secret.txt']);
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('outside, keep me');
    for (const outcome of outcomes)
      expect(outcome).toMatch(/^(restored|refused:outside_root|refused:not_a_file|failed:.*ENOENT)/);
  });

  it('refuses to snapshot a hard link to a file outside the root', async () => {
    linkSync(join(outside, 'secret.txt'), join(root, 'docs', 'linked.txt'));
    const error = await take('docs/linked.txt', 'c-link').catch((caught: unknown) => caught);
    expect(FileSnapshotError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'not_a_file' });
    expect(existsSync(join(base, 'snapshots'))).toBe(false);
  });

  it('refuses to restore over a file that became a hard link to a file outside the root', async () => {
    writeFileSync(join(root, 'docs', 'page.txt'), 'page as it was');
    const snapshot = await take('docs/page.txt', 'c-page');
    rmSync(join(root, 'docs', 'page.txt'));
    linkSync(join(outside, 'secret.txt'), join(root, 'docs', 'page.txt'));
    const error = await rollback(snapshot.id).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ reason: 'not_a_file' });
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('outside, keep me');
    expect(existsSync(join(root, 'docs', 'page.txt'))).toBe(true);
  });
});
