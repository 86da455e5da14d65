#!/usr/bin/env node
// The layer-order rule of DESIGN.md §2: imports between folders of src/ go one way only.
// Biome's noImportCycles catches cycles; this catches an import from a lower layer to a higher one.
// A concept's folder may hold a sub-folder that sits higher than the folder itself (ADR 0052): the pure
// TodoList in plan/ sits below the plan loop in plan/loop/, the suspension records in hitl/ below the
// resume path in hitl/resume/, the pure policy in policy/ below a flow's run in a turn in policy/run/. Such a sub-folder is named in the order as `folder/sub`.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const order = [
  ['spec'],
  ['errors'],
  ['util', 'model'],
  ['redact'],
  ['observe'],
  ['store', 'hitl', 'consistency'],
  ['tool'],
  ['loop'],
  ['skill'],
  ['flow', 'memory', 'respond'],
  ['policy'],
  ['plan', 'a2a'],
  ['turn'],
  ['hitl/resume'],
  ['nlu'],
  ['policy/run'],
  ['plan/loop'],
  ['replay', 'schedule'],
  ['options'],
  ['agent'],
  ['server', 'cli', 'ui', 'test', 'mcp'],
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

/** The layer a path of src/ belongs to: its `folder/sub` when the order names that, else its folder. */
function unitOf(path) {
  const [folder, sub] = path.split('/');
  return sub !== undefined && level.has(`${folder}/${sub}`) ? `${folder}/${sub}` : folder;
}

const problems = [];
for (const file of files(root)) {
  // The entry points at the top (`index.ts`, `blocks.ts`) re-export the folders and sit above them all.
  if (!statSync(join(root, relative(root, file).split('/')[0])).isDirectory()) continue;
  const from = unitOf(relative(root, file));
  const source = readFileSync(file, 'utf8');
  for (const match of source.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"`;]*?from\s*['"](\.[^'"]+)['"]/g)) {
    const target = unitOf(relative(root, resolve(dirname(file), match[1])));
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
