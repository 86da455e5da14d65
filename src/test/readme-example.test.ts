/**
 * The README's five-minute example, run as written (imports pointed at this checkout), so the README
 * cannot drift from what the package does.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it, vi } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

function exampleSource(): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## A five-minute example'));
  const start = section.indexOf('```ts\n') + '```ts\n'.length;
  return section.slice(start, section.indexOf('```', start));
}

describe('the README', () => {
  it('five-minute example prints the question, then the answer', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowstack-readme-'));
    const source = exampleSource()
      .replace("from 'flowstack/test'", `from '${join(root, 'src/test/index.ts')}'`)
      .replace("from 'flowstack'", `from '${join(root, 'src/index.ts')}'`)
      .replace('createSqliteStore()', `createSqliteStore({ path: '${join(dir, 'example.db')}' })`);
    const file = join(dir, 'example.ts');
    writeFileSync(file, source);
    const printed: unknown[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((...args) => {
      printed.push(args.join(' '));
    });
    try {
      await import(file);
    } finally {
      log.mockRestore();
    }
    expect(printed).toEqual(['Which city?', 'It is 21 °C in Oslo.']);
  });
});
