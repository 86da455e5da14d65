#!/usr/bin/env node
// The layer-order rule of DESIGN.md §2: imports between folders of src/ go one way only.
// Biome's noImportCycles catches cycles; this catches an import from a lower layer to a higher one.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const order = [
  ['spec'],
  ['errors'],
  ['util'],
  ['redact'],
  ['observe'],
  ['store', 'hitl', 'consistency'],
  ['tool'],
  ['loop'],
  ['skill'],
  ['flow', 'memory', 'respond'],
  ['policy'],
  ['nlu'],
  ['plan', 'a2a'],
  ['agent'],
  ['server', 'cli', 'ui', 'test'],
];
const level = new Map(order.flatMap((names, i) => names.map((n) => [n, i])));
// Adapters may import anything below tool/; nothing in core may import an adapter. The command line is
// the one application shell that may (docs/decisions/0023-turn-queue.md): `flowstack worker` and a scaled
// `flowstack serve` open the PostgreSQL store and the BullMQ queue, whose drivers load only when used.
const adapterCeiling = level.get('tool');
const root = resolve(process.argv[2] ?? resolve(import.meta.dirname, '..', 'src'));

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (path.endsWith('.ts') && !path.endsWith('.test.ts') && !path.includes('/fixtures/')) yield path;
  }
}

const problems = [];
for (const file of files(root)) {
  const from = relative(root, file).split('/')[0];
  // The entry points at the top (`index.ts`, `blocks.ts`) re-export the folders and sit above them all.
  if (!statSync(join(root, from)).isDirectory()) continue;
  const source = readFileSync(file, 'utf8');
  for (const match of source.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"`;]*?from\s*['"](\.[^'"]+)['"]/g)) {
    const target = relative(root, resolve(dirname(file), match[1])).split('/')[0];
    if (target === from || target.startsWith('..')) continue;
    const fromAdapter = from === 'adapters';
    if (target === 'adapters' && from === 'cli') continue;
    if (target === 'adapters' && !fromAdapter)
      problems.push(`${relative(root, file)}: core must not import an adapter (${match[1]})`);
    else if (fromAdapter && (level.get(target) ?? Infinity) >= adapterCeiling)
      problems.push(`${relative(root, file)}: an adapter may import only layers below tool/ (${match[1]})`);
    else if (!fromAdapter && !level.has(from))
      problems.push(`${relative(root, file)}: folder '${from}' has no place in the layer order`);
    else if (!fromAdapter && (level.get(target) ?? Infinity) > level.get(from))
      problems.push(`${relative(root, file)}: ${from}/ may not import ${target}/ (${match[1]})`);
  }
}
if (problems.length > 0) {
  console.error(`Layer order violated (DESIGN.md §2):\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
console.log('Layer order holds.');
