import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const script = join(import.meta.dirname, 'check-layers.mjs');

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'layers-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const run = (root: string) => spawnSync(process.execPath, [script, root], { encoding: 'utf8' });

describe('the layer-order rule', () => {
  it('accepts imports from lower layers', () => {
    const result = run(
      tree({
        'tool/a.ts': "import { x } from '../spec/index.js';\n",
        'spec/index.ts': 'export const x = 1;\n',
      }),
    );
    expect(result.status).toBe(0);
  });

  it('lets the entry points at the top of src/ import every folder', () => {
    const result = run(
      tree({
        'index.ts': "export { createAgent } from './agent/index.js';\n",
        'blocks.ts': "export { x } from './spec/index.js';\n",
        'agent/index.ts': 'export const createAgent = 1;\n',
        'spec/index.ts': 'export const x = 1;\n',
      }),
    );
    expect(result.status).toBe(0);
  });

  it('refuses an import from a lower layer to a higher one, naming the file', () => {
    const result = run(
      tree({ 'spec/a.ts': "import type { Agent } from '../agent/index.js';\n", 'agent/index.ts': '' }),
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('spec/a.ts: spec/ may not import agent/');
  });

  it('refuses core importing an adapter, and an adapter importing tool/', () => {
    const result = run(
      tree({
        'store/a.ts': "export * from '../adapters/pg/index.js';\n",
        'adapters/pg/index.ts': "import '../../tool/index.js';\nexport {} from '../../tool/index.js';\n",
      }),
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('core must not import an adapter');
    expect(result.stderr).toContain('an adapter may import only layers below tool/');
  });
});
