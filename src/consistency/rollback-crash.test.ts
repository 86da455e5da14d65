/**
 * A rollback killed with SIGKILL at every one of its writes, in a child process, then run again in a
 * new process (issue 7, seed 004): each time, the files end byte for byte as they were before the
 * failed call, and the report equals that of an uninterrupted rollback. A finished rollback run again
 * writes nothing and reports the same.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const bundle = join(root, 'node_modules/.cache/flowstack/rollback-child.mjs');
const dir = mkdtempSync(join(tmpdir(), 'flowstack-rollback-crash-'));
const template = join(dir, 'template');
const base = join(dir, 'case');
const binary = randomBytes(3000);

interface ChildRun {
  signal: NodeJS.Signals | null;
  code: number | null;
  result?: Record<string, unknown>;
  writes?: number;
  stderr: string;
}

function runChild(mode: string, crash?: { at: number; when: 'before' | 'after' }): Promise<ChildRun> {
  const env = {
    ...process.env,
    FLOWSTACK_CRASH_AT: String(crash?.at ?? 0),
    FLOWSTACK_CRASH_WHEN: crash?.when ?? '',
  };
  return new Promise((done) => {
    execFile(
      process.execPath,
      [bundle, base, mode],
      { env, cwd: root, timeout: 30_000 },
      (error, stdout, stderr) => {
        const line = stdout.trim().split('\n').at(-1);
        const writes = /writes=(\d+)/.exec(stderr)?.[1];
        done({
          signal: (error as { signal?: NodeJS.Signals } | null)?.signal ?? null,
          code: (error as { code?: number } | null)?.code ?? 0,
          ...(line ? { result: JSON.parse(line) } : {}),
          ...(writes ? { writes: Number(writes) } : {}),
          stderr,
        });
      },
    );
  });
}

/** The case folder as the failed call left it (same path every time: snapshots name their root). */
function resetCase() {
  rmSync(base, { recursive: true, force: true });
  cpSync(template, base, { recursive: true });
}

function expectOriginal() {
  expect(readFileSync(join(base, 'work/notes.txt'), 'utf8')).toBe('line one\nline two\n');
  expect(readFileSync(join(base, 'work/logo.bin')).equals(binary)).toBe(true);
  expect(statSync(join(base, 'work/logo.bin')).mode & 0o777).toBe(0o640);
  expect(existsSync(join(base, 'work/drafts'))).toBe(false);
  expect(existsSync(join(base, 'work/never.txt'))).toBe(false);
}

beforeAll(async () => {
  mkdirSync(join(root, 'node_modules/.cache/flowstack'), { recursive: true });
  await build({
    entryPoints: [join(root, 'src/agent/fixtures/rollback-child.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outfile: bundle,
    logLevel: 'silent',
  });
  mkdirSync(join(base, 'work'), { recursive: true });
  writeFileSync(join(base, 'work/notes.txt'), 'line one\nline two\n');
  writeFileSync(join(base, 'work/logo.bin'), binary, { mode: 0o640 });
  const setup = await runChild('setup');
  expect(setup.result).toEqual({ status: 'suspended', kind: 'rollback' });
  expect(readFileSync(join(base, 'work/notes.txt'), 'utf8')).toBe('rewritten');
  cpSync(base, template, { recursive: true });
});

describe('rollback killed with SIGKILL at each write, then run again', () => {
  it('ends with the files of before the call and the report of an uninterrupted rollback', async () => {
    resetCase();
    const baseline = await runChild('rollback');
    expect(baseline.code, baseline.stderr).toBe(0);
    expectOriginal();
    expect(baseline.result).toMatchObject({
      status: 'rolled-back',
      callId: 'edit-1',
      restored: ['notes.txt', 'logo.bin'],
      removed: ['drafts/deep/new.md'],
    });
    // rollback-start, 6 steps each a file operation then its journal line, rollback-done.
    const writes = baseline.writes ?? 0;
    expect(writes).toBe(14);
    const again = await runChild('rollback');
    expect(again.result).toEqual(baseline.result);
    expect(again.writes, 'a finished rollback writes nothing').toBe(0);
    expectOriginal();

    for (let at = 1; at <= writes; at++) {
      for (const when of ['before', 'after'] as const) {
        resetCase();
        const killed = await runChild('rollback', { at, when });
        expect(killed.signal, `${when} write ${at}`).toBe('SIGKILL');
        expect(killed.result).toBeUndefined();
        const resumed = await runChild('rollback');
        expect(resumed.code, `${when} write ${at}: ${resumed.stderr}`).toBe(0);
        expect(resumed.result, `${when} write ${at}`).toEqual(baseline.result);
        expectOriginal();
      }
    }
  }, 300_000);
});
