/**
 * The front door stays small (STYLE.md rule 15, docs/decisions/0051-public-api.md): the root entry offers
 * fewer than 40 runtime values, and each name is public in one place only — the root or `flowstack/blocks`.
 * The full lists are checked by `npm run api:check` against `api-report/`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the repository's scripts, without types.
import { readExportList } from '../scripts/api-report.mjs';
import * as blocks from './blocks.js';
import * as root from './index.js';

describe('the public entry points', () => {
  it('the root offers fewer than 40 runtime values', () => {
    expect(Object.keys(root).length).toBeLessThan(40);
  });

  it('the root offers what an agent author writes against', () => {
    const authorApi = [
      'createAgent',
      'defineFlow',
      'defineTool',
      'defineDomain',
      'loadDomain',
      'loadManifest',
    ];
    for (const name of [...authorApi, 'mcpTools', 'createSqliteStore', 'redactSecrets', 'FlowstackError']) {
      expect(root).toHaveProperty(name);
    }
  });

  it('a building block is under flowstack/blocks, not at the root', () => {
    const names = (file: string) => {
      const listed = readExportList(readFileSync(join(import.meta.dirname, file), 'utf8'));
      return [...listed.values, ...listed.types];
    };
    const rootNames = new Set(names('index.ts'));
    expect(names('blocks.ts').filter((name) => rootNames.has(name))).toEqual([]);
    expect(root).not.toHaveProperty('runSkillLoop');
    expect(blocks).toHaveProperty('runSkillLoop');
  });

  it('internals are not exported', () => {
    for (const name of [
      'flatString',
      'createTextInterner',
      'runStages',
      'afterStage',
      'createToolCallState',
    ]) {
      expect(root).not.toHaveProperty(name);
      expect(blocks).not.toHaveProperty(name);
    }
  });
});
