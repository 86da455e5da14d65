#!/usr/bin/env node
/**
 * Cold start, side by side: how long `import('flowstack')` takes in a fresh process, the memory it
 * leaves (RSS) and how many module files it loads, next to `import('ai')` measured in the same run.
 * Each import runs in its own child process, several times alternately; the median is reported.
 *
 *   npm run build && node bench/cold-start.mjs [--runs 7] [--install]
 *
 * `--install` also packs flowstack, installs the tarball into an empty project and reports the size
 * of its node_modules and the number of packages (what a user downloads; needs npm's cache or the
 * registry). Not part of `npm run bench`: it takes seconds and needs no peers.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const runs = Number(args[args.indexOf('--runs') + 1]) || 7;
const work = mkdtempSync(join(tmpdir(), 'flowstack-cold-start-'));

const built = join(root, 'dist/src/index.js');
if (!existsSync(built)) {
  console.error('cold-start: build first (npm run build).');
  process.exit(1);
}

// The child prints the import time and RSS; run with --count, it records every file module it loads
// instead (ES modules through a load hook, CommonJS from the require cache), as the hook slows loading.
writeFileSync(
  join(work, 'hooks.mjs'),
  `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  if (url.startsWith('file:')) appendFileSync(process.env.LOADED_FILE, url + '\\n');
  return next(url, context);
}
`,
);
writeFileSync(
  join(work, 'child.mjs'),
  `import { register, createRequire } from 'node:module';
import { readFileSync, writeFileSync } from 'node:fs';
const counting = process.argv[3] === '--count';
if (counting) {
  writeFileSync(process.env.LOADED_FILE, '');
  register('./hooks.mjs', import.meta.url);
}
const started = performance.now();
await import(process.argv[2]);
const ms = performance.now() - started;
const rss = process.memoryUsage().rss;
if (!counting) console.log(JSON.stringify({ ms, rss }));
else {
  const files = new Set(readFileSync(process.env.LOADED_FILE, 'utf8').split('\\n').filter(Boolean));
  for (const file of Object.keys(createRequire(import.meta.url).cache)) files.add(file);
  console.log(JSON.stringify({ modules: files.size }));
}
`,
);

function measureOnce(specifier, ...flags) {
  const child = spawnSync(process.execPath, [join(work, 'child.mjs'), specifier, ...flags], {
    encoding: 'utf8',
    env: { ...process.env, LOADED_FILE: join(work, 'loaded.txt') },
  });
  if (child.status !== 0) throw new Error(`importing ${specifier} failed:\n${child.stderr}`);
  return JSON.parse(child.stdout);
}

const median = (values) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)];

const targets = {
  flowstack: pathToFileURL(built).href,
  ai: pathToFileURL(join(root, 'node_modules/ai/dist/index.mjs')).href,
};
const samples = Object.fromEntries(Object.keys(targets).map((name) => [name, []]));
for (let run = 0; run < runs; run++)
  for (const [name, specifier] of Object.entries(targets)) samples[name].push(measureOnce(specifier));

console.log(`Cold start, median of ${runs} fresh processes (Node ${process.version}):`);
console.log('| import | time (ms) | RSS (MB) | module files |');
console.log('| --- | ---: | ---: | ---: |');
for (const [name, list] of Object.entries(samples)) {
  const ms = median(list.map((s) => s.ms));
  const rss = median(list.map((s) => s.rss)) / 1e6;
  const { modules } = measureOnce(targets[name], '--count');
  console.log(`| ${name} | ${ms.toFixed(0)} | ${rss.toFixed(0)} | ${modules} |`);
}

if (args.includes('--install')) {
  const packed = spawnSync('npm', ['pack', '--json', '--pack-destination', work], {
    cwd: root,
    encoding: 'utf8',
  });
  if (packed.status !== 0) throw new Error(`npm pack failed:\n${packed.stderr}`);
  const [listing] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('[\n')));
  const project = join(work, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), '{ "name": "cold-start", "private": true }');
  const install = spawnSync(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', join(work, listing.filename)],
    { cwd: project, encoding: 'utf8' },
  );
  if (install.status !== 0) throw new Error(`npm install failed:\n${install.stderr}`);
  const modules = join(project, 'node_modules');
  const packages = readdirSync(modules)
    .filter((name) => !name.startsWith('.'))
    .flatMap((name) => (name.startsWith('@') ? readdirSync(join(modules, name)) : [name])).length;
  const size = (sizeOf(modules) / 1e6).toFixed(0);
  console.log(`\nInstall: ${size} MB of node_modules (file sizes), ${packages} packages.`);
}

function sizeOf(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((total, name) => total + sizeOf(join(path, name)), 0);
}

rmSync(work, { recursive: true, force: true });
