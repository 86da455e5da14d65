import { describe, expect, it } from 'vitest';
import { planRollback } from './plan-rollback.js';
import { selectTouchedPaths } from './select-touched-paths.js';

describe('selectTouchedPaths', () => {
  it('reads plain, nested, array and wildcard selectors, each path once', () => {
    const input = {
      path: 'a.txt',
      extra: ['b.txt', 3, 'a.txt'],
      edits: [{ file: 'c/d.txt' }, { file: 'e.bin' }, { other: 'x' }],
      map: { one: { file: 'f.txt' } },
    };
    expect(
      selectTouchedPaths({ arguments: ['path', 'extra', 'edits.*.file', 'map.*.file', 'missing.x'] }, input),
    ).toEqual(['a.txt', 'b.txt', 'c/d.txt', 'e.bin', 'f.txt']);
  });

  it('puts the fixed paths first, then the named ones, each once', () => {
    expect(
      selectTouchedPaths({ paths: ['ledger.json', 'a.txt'], arguments: ['path'] }, { path: 'a.txt' }),
    ).toEqual(['ledger.json', 'a.txt']);
    expect(selectTouchedPaths({ paths: ['ledger.json'] }, {})).toEqual(['ledger.json']);
  });

  it('ignores values that are not paths and keys inherited from the prototype', () => {
    expect(selectTouchedPaths({ arguments: ['path', 'constructor', 'toString'] }, { path: 7 })).toEqual([]);
    expect(selectTouchedPaths({ arguments: ['path'] }, 'a.txt')).toEqual([]);
  });
});

describe('planRollback', () => {
  it('restores what existed, removes what the call created, then its empty folders deepest first', () => {
    const steps = planRollback({
      specVersion: 1,
      id: 'fs_000000000000000000000000',
      threadId: 't',
      turnId: 'turn',
      callId: 'c1',
      toolName: 'edit',
      idempotencyKey: 't:turn:c1',
      root: '/r',
      createdAt: 1,
      checksum: '0'.repeat(64),
      files: [
        { path: 'new/deep/x.txt', existed: false, createdDirs: ['new', 'new/deep'] },
        { path: 'a.txt', existed: true, mode: 0o644, size: 1, sha256: 'f'.repeat(64), content: 'c0' },
        { path: 'new/y.txt', existed: false, createdDirs: ['new'] },
      ],
    });
    expect(steps).toEqual([
      { kind: 'remove-file', path: 'new/deep/x.txt' },
      { kind: 'restore', path: 'a.txt', content: 'c0', mode: 0o644, sha256: 'f'.repeat(64), size: 1 },
      { kind: 'remove-file', path: 'new/y.txt' },
      { kind: 'remove-dir', path: 'new/deep' },
      { kind: 'remove-dir', path: 'new' },
    ]);
  });
});
