#!/usr/bin/env node
// The web page is plain files (no bundler): the build copies them beside the compiled ui/ module.
import { cpSync } from 'node:fs';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
cpSync(resolve(root, 'src/ui/assets'), resolve(root, 'dist/src/ui/assets'), {
  recursive: true,
  filter: (source) => !source.endsWith('.d.ts'),
});
