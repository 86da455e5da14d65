/**
 * The getting-started guide, run as written: each `// file:` program of docs/getting-started.md (imports
 * pointed at this checkout) prints exactly the `text` block that follows it, so the guide cannot drift
 * from what the package does.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { format } from 'node:util';
import { describe, expect, it, vi } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const guide = readFileSync(join(root, 'docs/getting-started.md'), 'utf8');

/** Each program of the guide with the output the guide says it prints. */
function readPrograms(): Array<{ name: string; source: string; printed: string[] }> {
  const programs = [];
  const block = /```ts\n\/\/ file: (\S+)\n([\s\S]*?)```[\s\S]*?```text\n([\s\S]*?)```/g;
  for (const match of guide.matchAll(block)) {
    const [, name = '', source = '', printed = ''] = match;
    programs.push({ name, source, printed: printed.trimEnd().split('\n') });
  }
  return programs;
}

const entryPoints: Array<[string, string]> = [
  ["from 'flowstack/test'", 'src/test/index.ts'],
  ["from 'flowstack/server'", 'src/server/index.ts'],
  ["from 'flowstack'", 'src/index.ts'],
];

describe('docs/getting-started.md', () => {
  const programs = readPrograms();

  it('has its four programs, each followed by what it prints', () => {
    expect(programs.map((p) => p.name)).toEqual(['first-agent.ts', 'approval.ts', 'serve.ts', 'stream.ts']);
  });

  for (const program of programs)
    it(`${program.name} prints what the guide says`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'flowstack-guide-'));
      let source = program.source;
      for (const [from, path] of entryPoints) source = source.replaceAll(from, `from '${join(root, path)}'`);
      const file = join(dir, program.name);
      writeFileSync(file, source);
      const printed: string[] = [];
      const log = vi.spyOn(console, 'log').mockImplementation((...args) => {
        printed.push(format(...args));
      });
      try {
        await import(file);
      } finally {
        log.mockRestore();
      }
      expect(printed).toEqual(program.printed);
    });
});
