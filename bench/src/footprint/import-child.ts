/**
 * One cold import in a fresh process: `node dist/footprint/import-child.js <specifier> [--count]`. Prints
 * one JSON line: the import's time and the process's RSS after it, or, with `--count`, the number of module
 * files it loaded (ES modules seen by a load hook, CommonJS ones from the require cache). Counting slows the
 * loading, so it runs in a process of its own whose time is not used.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { fileURLToPath } from 'node:url';

const specifier = process.argv[2];
if (specifier === undefined) throw new Error('import-child: no specifier given');
const counting = process.argv[3] === '--count';
const loadedFile = process.env.FOOTPRINT_LOADED_FILE ?? '';
if (counting) {
  writeFileSync(loadedFile, '');
  register('./count-hooks.js', import.meta.url);
}
const started = performance.now();
await import(specifier);
const importMs = performance.now() - started;
const rssBytes = process.memoryUsage().rss;
if (!counting) {
  process.stdout.write(`${JSON.stringify({ importMs, rssBytes })}\n`);
} else {
  // As paths, so that a CommonJS file loaded by an import and seen by both is counted once.
  const files = new Set(
    readFileSync(loadedFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((url) => fileURLToPath(url)),
  );
  for (const file of Object.keys(createRequire(import.meta.url).cache)) files.add(file);
  process.stdout.write(`${JSON.stringify({ modules: files.size })}\n`);
}
// A framework may leave timers or sockets behind at import; the measurement is done.
process.exit(0);
