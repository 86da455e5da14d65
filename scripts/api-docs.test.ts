import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the repository's scripts, without types.
import { renderApiDocs } from './api-docs.mjs';

const root = resolve(import.meta.dirname, '..');
const apiDocs = readFileSync(join(root, 'docs/api.md'), 'utf8');

/** The markdown files a reader of the package follows links through. */
function readDocs(): string[] {
  const files = ['README.md'];
  const walk = (folder: string) => {
    for (const entry of readdirSync(join(root, folder), { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) files.push(path);
    }
  };
  walk('docs');
  return files;
}

describe('the API reference (docs/api.md)', () => {
  it('is what `npm run docs:api` writes from the sources today', () => {
    expect(apiDocs, 'docs/api.md is stale: run `npm run docs:api`').toBe(renderApiDocs());
  });

  it('names every value and type the API report lists, under its entry point', () => {
    for (const report of readdirSync(join(root, 'api-report'))) {
      const text = readFileSync(join(root, 'api-report', report), 'utf8');
      const specifier = /^# `([^`]+)`/.exec(text)?.[1] ?? '';
      const start = apiDocs.indexOf(`## \`${specifier}\`\n`);
      expect(start, `no section for ${specifier}`).toBeGreaterThanOrEqual(0);
      const next = apiDocs.indexOf('\n## ', start + 1);
      const section = apiDocs.slice(start, next < 0 ? undefined : next);
      const names = [...text.matchAll(/^- `([^`]+)`/gm)].map((m) => m[1]);
      expect(names.length).toBeGreaterThan(0);
      expect(names.filter((name) => !section.includes(`| \`${name}\` |`))).toEqual([]);
    }
  });
});

describe('the docs’ links', () => {
  it('point at files of this repository that exist (no ../shared, no broken paths)', () => {
    const broken: string[] = [];
    for (const file of readDocs()) {
      const text = readFileSync(join(root, file), 'utf8');
      for (const [, target = ''] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target) || target.startsWith('#')) continue;
        const path = resolve(dirname(join(root, file)), target.split('#')[0] ?? '');
        if (!path.startsWith(`${root}/`) || !existsSync(path)) broken.push(`${file}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
