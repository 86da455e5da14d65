#!/usr/bin/env node
/**
 * `npm run build`: the package as it is published (docs/decisions/0084-a-bundled-build-and-ajv-on-first-use.md).
 * - tsc checks the sources and writes the type declarations (`dist/src/**.d.ts`), one per source file;
 * - esbuild writes the JavaScript: one module per entry point of package.json "exports" and the command
 *   line, plus the chunks they share, so that `import('flowstack')` reads a handful of files instead of
 *   hundreds, and `flowstack` and `flowstack/server` share one copy of every module;
 * - the examples are compiled file by file beside them (`dist/examples`), importing the entry points;
 * - the web page's files are copied beside the module that reads them.
 * Packages stay imports (dependencies and peers are installed next to flowstack, never inlined).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
const dist = join(root, 'dist');
const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** `./dist/src/x/index.js` → `src/x/index.ts`. */
const sourceOf = (output) => output.replace(/^\.\/dist\//, '').replace(/\.js$/, '.ts');

// Files of dist/src that the repository's own benchmark imports besides the entry points.
const benchmarkEntries = ['src/test/emulators/start-provider-emulator.ts'];

const entryPoints = [
  ...Object.values(packageJson.exports).map((target) => sourceOf(target.import)),
  sourceOf(`./${packageJson.bin.flowstack}`),
  ...benchmarkEntries,
];

// The last build goes first, so that no module of an earlier layout (or of a deleted source) is left behind.
for (const folder of ['src', 'examples']) rmSync(join(dist, folder), { recursive: true, force: true });

execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
  cwd: root,
  stdio: 'inherit',
});

const shared = {
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  sourcesContent: false,
  logLevel: 'warning',
};

const library = await build({
  ...shared,
  absWorkingDir: root,
  entryPoints,
  outdir: join(dist, 'src'),
  outbase: 'src',
  bundle: true,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  packages: 'external',
  // Names are not pinned at run time: that would name every function again each time one is made, and a
  // turn makes many (6–7 KiB more held per running session). esbuild renames a top-level name only where
  // two clash; the package test checks that every error class keeps the name `isInstance` compares.
  keepNames: false,
  metafile: true,
});

await build({
  ...shared,
  absWorkingDir: root,
  entryPoints: sourceFiles(join(root, 'examples')).map((file) => relative(root, file)),
  outdir: join(dist, 'examples'),
  outbase: 'examples',
});

copyUiAssets(library.metafile);

/** The web page's files go beside whichever output module holds the code that reads them. */
function copyUiAssets(metafile) {
  const reader = 'src/ui/ui-assets.ts';
  const holder = Object.entries(metafile.outputs).find(
    ([output, { inputs }]) => output.endsWith('.js') && reader in inputs,
  );
  if (!holder) throw new Error(`build: no output module holds ${reader}`);
  cpSync(join(root, 'src/ui/assets'), join(root, dirname(holder[0]), 'assets'), {
    recursive: true,
    filter: (source) => !source.endsWith('.d.ts'),
  });
}

/** The compiled files of a folder (sources, not tests or fixtures). */
function sourceFiles(folder) {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => !file.includes('/fixtures/'));
}
