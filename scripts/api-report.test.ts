import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the repository's scripts, without types.
import { diffLines, listEntries, readExportList } from './api-report.mjs';

describe('the API report', () => {
  it('reads the names of an entry point, values and types apart', () => {
    const listed = readExportList(
      [
        '/** export * from nowhere: a comment */',
        "export { createAgent, type AgentOptions } from './agent/index.js';",
        "export type { Clock } from './util/index.js';",
        "export { FlowstackError as BaseError } from './errors/index.js';",
        'export const version = 1;',
      ].join('\n'),
    );
    expect(listed).toEqual({
      values: ['createAgent', 'BaseError', 'version'],
      types: ['AgentOptions', 'Clock'],
      problems: [],
    });
  });

  it('refuses an entry point that does not name its exports', () => {
    expect(readExportList("export * from './flow/index.js';").problems).toEqual([
      `name every export, not "export * from './flow/index.js'"`,
    ]);
  });

  it('finds the entry points in package.json "exports"', () => {
    const entries = listEntries({
      name: 'flowstack',
      exports: {
        '.': { types: './dist/src/index.d.ts', import: './dist/src/index.js' },
        './blocks': { types: './dist/src/blocks.d.ts', import: './dist/src/blocks.js' },
        './package.json': './package.json',
      },
    });
    expect(entries).toEqual([
      { specifier: 'flowstack', source: 'src/index.ts', report: 'flowstack.api.md' },
      { specifier: 'flowstack/blocks', source: 'src/blocks.ts', report: 'flowstack-blocks.api.md' },
    ]);
  });

  it('shows what was added and what was removed', () => {
    expect(diffLines('a\nb\nc\n', 'a\nc\nd\n')).toEqual(['- b', '+ d']);
  });
});
