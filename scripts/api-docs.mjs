#!/usr/bin/env node
// The API reference (docs/api.md): every export of each public entry point of package.json "exports", with
// the first paragraph of its TSDoc, read from the sources (following each entry's re-exports to the
// declaration). `npm run docs:api`
// writes it; `node scripts/api-docs.mjs --check` fails when the checked-in file is stale. The names come
// from the same entry points as the API report (api-report/*.api.md), and scripts/api-docs.test.ts checks
// that the reference names every one of them and that the docs' links resolve.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const target = join(root, 'docs/api.md');

/** What each entry point is for, in one line (the entry file's own comment says more). */
const purposes = {
  flowstack:
    'What an agent’s author writes against: the agent, flows and domains, tools, stores, redaction, the errors and the public types.',
  'flowstack/blocks':
    'The building blocks the agent is made of (flow stack, TodoList, skill loop, tool pipeline, code guardrails …), for those who assemble their own.',
  'flowstack/test': 'The scripted model, mocks and conformance suites that flowstack’s own tests use.',
  'flowstack/server': 'The HTTP API, the web page and the A2A endpoint.',
  'flowstack/postgres': 'The PostgreSQL store (install `pg`).',
  'flowstack/redis': 'The Redis event fan-out and rate limiter (install `ioredis`).',
  'flowstack/bullmq': 'The BullMQ turn queue and its workers (install `bullmq`).',
};

function listEntries() {
  const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const entries = [];
  for (const [subpath, exported] of Object.entries(packageJson.exports ?? {})) {
    const file = typeof exported === 'string' ? exported : exported?.import;
    const match = typeof file === 'string' ? /^\.\/dist\/(src\/.+)\.js$/.exec(file) : null;
    if (!match) continue;
    const specifier = subpath === '.' ? packageJson.name : `${packageJson.name}/${subpath.slice(2)}`;
    entries.push({ specifier, source: join(root, `${match[1]}.ts`) });
  }
  return entries;
}

/** An import path of a source file as the file it names: `./x.js` → `x.ts`, `x/index.ts`, `x.d.ts` or `x.js`. */
function resolveModule(fromFile, specifier) {
  // A package's import (in an example of a comment, or a dependency) declares nothing of ours.
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(fromFile), specifier.replace(/\.js$/, ''));
  for (const candidate of [`${base}.ts`, join(base, 'index.ts'), `${base}.d.ts`, `${base}.js`])
    if (existsSync(candidate)) return candidate;
  return undefined;
}

const reExport = /export\s+(type\s+)?\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]/g;
const importList = /import\s+(type\s+)?\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]/g;
// `export { a, type B };` of names the file imported.
const localExportList = /export\s+(type\s+)?\{([^}]*)\}\s*;/g;

function readItems(list) {
  return list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((item) => /^(type\s+)?([\w$]+)(?:\s+as\s+([\w$]+))?$/.exec(item))
    .filter(Boolean)
    .map((parts) => ({ name: parts[2], as: parts[3] ?? parts[2] }));
}
const declaration =
  /(\/\*\*(?:(?!\*\/)[\s\S])*\*\/\s*)?export\s+(?:declare\s+)?(?:async\s+)?(function\*?|const|let|class|abstract\s+class|enum|interface|type)\s+([\w$]+)/g;

/** Where a file declares or re-exports each name it exports. */
function readFileExports(file, cache) {
  const known = cache.get(file);
  if (known) return known;
  const source = readFileSync(file, 'utf8');
  const exports = new Map();
  const imported = new Map();
  for (const match of source.matchAll(importList))
    for (const item of readItems(match[2])) {
      const from = resolveModule(file, match[3]);
      if (from) imported.set(item.as, { from, name: item.name });
    }
  for (const match of source.matchAll(localExportList))
    for (const item of readItems(match[2])) {
      const from = imported.get(item.name);
      if (from) exports.set(item.as, from);
    }
  for (const match of source.matchAll(reExport)) {
    const typeOnly = Boolean(match[1]);
    for (const item of match[2]
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)) {
      const parts = /^(type\s+)?([\w$]+)(?:\s+as\s+([\w$]+))?$/.exec(item);
      if (!parts) continue;
      const from = resolveModule(file, match[3]);
      if (!from) continue;
      exports.set(parts[3] ?? parts[2], {
        from,
        name: parts[2],
        typeOnly: typeOnly || Boolean(parts[1]),
      });
    }
  }
  for (const match of source.matchAll(declaration)) {
    const keyword = match[2].replace(/\s+/g, ' ');
    const kind =
      { interface: 'interface', type: 'type', class: 'class', 'abstract class': 'class', enum: 'enum' }[
        keyword
      ] ?? (keyword.startsWith('function') ? 'function' : 'value');
    // A .d.ts beside a .js asset declares functions without their comment: the .js has it.
    exports.set(match[3], { kind, doc: match[1] ?? '' });
  }
  cache.set(file, exports);
  return exports;
}

const starExport = /export\s+(?:type\s+)?\*\s+from\s*['"]([^'"]+)['"]/g;

/** The declaration of an exported name (following re-exports), with its kind and TSDoc. */
function findDeclaration(file, name, cache, depth = 0) {
  if (depth > 20) return undefined;
  const found = readFileExports(file, cache).get(name);
  if (!found) {
    // `export type * from './x.js'` (the spec folder): the name is in one of those modules.
    for (const match of readFileSync(file, 'utf8').matchAll(starExport)) {
      const from = resolveModule(file, match[1]);
      const declared = from && findDeclaration(from, name, cache, depth + 1);
      if (declared) return declared;
    }
    return undefined;
  }
  if (found.from) {
    const declared = findDeclaration(found.from, found.name, cache, depth + 1);
    if (declared && !declared.doc && found.from.endsWith('.d.ts')) {
      const script = found.from.replace(/\.d\.ts$/, '.js');
      if (existsSync(script))
        return { ...declared, doc: readFileExports(script, cache).get(found.name)?.doc ?? '' };
    }
    return declared && found.typeOnly && declared.kind === 'class' ? declared : declared;
  }
  return found;
}

/** The first paragraph of a TSDoc comment, on one line, without tags. */
function summaryOf(doc) {
  const text = doc
    .replace(/^\/\*\*|\*\/\s*$/g, '')
    .split('\n')
    .map((line) => line.replace(/^\s*\* ?/, ''))
    .join('\n')
    .trim();
  const paragraph = text.split(/\n\s*\n|(?:^|\n)\s*@/)[0] ?? '';
  return paragraph.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim() || '—';
}

export function renderApiDocs() {
  const entries = listEntries();
  const cache = new Map();
  const lines = [
    '# API reference',
    '',
    'Every export of each entry point, with the first paragraph of its TSDoc. Written by `npm run docs:api`',
    'from the sources; the names are the ones `api-report/` lists, and the test command checks that this page',
    'names each of them. A value’s own TSDoc (hover it in an editor) has the details and an example.',
    '',
    ...entries.map((e) => `- [\`${e.specifier}\`](#${e.specifier.replace(/[^a-z0-9]+/g, '')})`),
    '',
  ];
  for (const entry of entries) {
    const names = [...readFileExports(entry.source, cache).keys()];
    const rows = names.map((name) => {
      const declared = findDeclaration(entry.source, name, cache);
      return { name, kind: declared?.kind ?? 'value', summary: summaryOf(declared?.doc ?? '') };
    });
    const byName = (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
    const values = rows.filter((r) => !['interface', 'type'].includes(r.kind)).sort(byName);
    const types = rows.filter((r) => ['interface', 'type'].includes(r.kind)).sort(byName);
    lines.push(`## \`${entry.specifier}\``, '', purposes[entry.specifier] ?? '', '');
    if (values.length > 0) {
      lines.push('### Values', '', '| Name | Kind | What it is |', '| --- | --- | --- |');
      for (const row of values) lines.push(`| \`${row.name}\` | ${row.kind} | ${row.summary} |`);
      lines.push('');
    }
    if (types.length > 0) {
      lines.push('### Types', '', '| Name | What it is |', '| --- | --- |');
      for (const row of types) lines.push(`| \`${row.name}\` | ${row.summary} |`);
      lines.push('');
    }
  }
  return lines.join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const text = renderApiDocs();
  if (process.argv.includes('--check')) {
    if (readFileSync(target, 'utf8') !== text) {
      console.error('docs/api.md is stale: run `npm run docs:api` and commit it.');
      process.exit(1);
    }
    console.log('docs/api.md matches the sources.');
  } else {
    writeFileSync(target, text);
    console.log('docs/api.md written.');
  }
}
