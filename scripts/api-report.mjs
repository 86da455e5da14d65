#!/usr/bin/env node
// The API report (docs/decisions/0051-public-api.md): every runtime value and type that each public entry
// point of package.json "exports" offers, compared with the checked-in `api-report/*.api.md`, so that an
// accidental export fails `npm test`. `npm run api:check` compares; `npm run api:update` rewrites the files
// after a deliberate change. Runs on the TypeScript sources (through tsx), so it needs no build.
//
// Types are read from the entry files' export lists, which must name every export (no `export *`): a
// public entry is a list a reviewer can read. Values are read from the imported module as well, and both
// readings must agree.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';

const root = resolve(import.meta.dirname, '..');
const reportDir = join(root, 'api-report');
const updateCommand = 'npm run api:update';

/** The public entry points: each "exports" subpath of package.json whose `import` is a module of `dist/src`. */
export function listEntries(packageJson) {
  const entries = [];
  for (const [subpath, target] of Object.entries(packageJson.exports ?? {})) {
    const file = typeof target === 'string' ? target : target?.import;
    const match = typeof file === 'string' ? /^\.\/dist\/(src\/.+)\.js$/.exec(file) : null;
    if (!match) continue;
    const specifier = subpath === '.' ? packageJson.name : `${packageJson.name}/${subpath.slice(2)}`;
    entries.push({ specifier, source: `${match[1]}.ts`, report: `${specifier.replaceAll('/', '-')}.api.md` });
  }
  return entries;
}

const exportList = /^export (type )?\{([^}]*)\}( from ['"][^'"]+['"])?$/;
const exportListItem = /^(type )?([A-Za-z_$][\w$]*)(?: as ([A-Za-z_$][\w$]*))?$/;
const localDeclaration =
  /^export (?:declare )?(?:async )?(function\*?|const|let|var|class|abstract class|enum|interface|type) ([\w$]+)/;

function stripComments(source) {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/[^\n]*/g, '');
}

/**
 * The names an entry file exports, read from its export statements: `export { a, type B } from '…'`,
 * `export type { C } from '…'` and local declarations. Anything else (`export *`, `export default`) is a
 * problem: an entry point names what it offers.
 */
export function readExportList(source) {
  const values = new Set();
  const types = new Set();
  const problems = [];
  for (const statement of stripComments(source).split(';')) {
    const text = statement.trim().replace(/\s+/g, ' ');
    if (!/(^|\s)export\b/.test(text)) continue;
    const exportText = text.slice(text.search(/(^|\s)export\b/)).trim();
    const list = exportList.exec(exportText);
    const local = localDeclaration.exec(exportText);
    if (list) {
      for (const item of list[2]
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)) {
        const entry = exportListItem.exec(item);
        if (!entry) {
          problems.push(`cannot read the export "${item}"`);
          continue;
        }
        const name = entry[3] ?? entry[2];
        (list[1] || entry[1] ? types : values).add(name);
      }
    } else if (local) {
      (['interface', 'type'].includes(local[1]) ? types : values).add(local[2]);
    } else {
      problems.push(`name every export, not "${exportText.slice(0, 60)}"`);
    }
  }
  // A class exported as a value is a type too; the report lists it once, as a value.
  for (const name of values) types.delete(name);
  return { values: [...values], types: [...types], problems };
}

function kindOf(value) {
  if (typeof value === 'function')
    return /^class\b/.test(Function.prototype.toString.call(value)) ? 'class' : 'function';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

const byName = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

export function renderReport(entry, values, types) {
  const lines = [
    `# \`${entry.specifier}\``,
    '',
    `The public API of \`${entry.specifier}\` (\`${entry.source}\`), written by \`${updateCommand}\`. \`npm test\``,
    'fails when the entry point and this list differ (docs/decisions/0051-public-api.md).',
    '',
    `## Runtime values (${values.length})`,
    '',
    ...values.sort((a, b) => byName(a.name, b.name)).map((v) => `- \`${v.name}\` ${v.kind}`),
    '',
    `## Types (${types.length})`,
    '',
    ...types.sort(byName).map((name) => `- \`${name}\``),
    '',
  ];
  return lines.join('\n');
}

/** The lines only in `before` (-) and only in `after` (+), in the order they appear. */
export function diffLines(before, after) {
  const had = new Set(before.split('\n'));
  const has = new Set(after.split('\n'));
  return [
    ...before
      .split('\n')
      .filter((line) => line && !has.has(line))
      .map((line) => `- ${line}`),
    ...after
      .split('\n')
      .filter((line) => line && !had.has(line))
      .map((line) => `+ ${line}`),
  ];
}

async function buildReports() {
  const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const reports = new Map();
  const problems = [];
  for (const entry of listEntries(packageJson)) {
    const file = join(root, entry.source);
    if (!existsSync(file)) {
      problems.push(`${entry.specifier}: ${entry.source} does not exist`);
      continue;
    }
    const listed = readExportList(readFileSync(file, 'utf8'));
    for (const problem of listed.problems) problems.push(`${entry.source}: ${problem}`);
    const module = await tsImport(pathToFileURL(file).href, import.meta.url);
    const runtime = Object.keys(module);
    const notListed = runtime.filter((name) => !listed.values.includes(name));
    const notAtRuntime = listed.values.filter((name) => !runtime.includes(name));
    if (notListed.length > 0)
      problems.push(`${entry.source}: exported at run time but not listed: ${notListed.join(', ')}`);
    if (notAtRuntime.length > 0)
      problems.push(
        `${entry.source}: listed as values but not exported at run time: ${notAtRuntime.join(', ')}`,
      );
    const values = runtime.map((name) => ({ name, kind: kindOf(module[name]) }));
    const text = renderReport(entry, values, listed.types);
    reports.set(entry.report, {
      entry,
      text,
      counts: `${values.length} values, ${listed.types.length} types`,
    });
  }
  return { reports, problems };
}

async function main() {
  const update = process.argv.includes('--update');
  const { reports, problems } = await buildReports();
  if (problems.length > 0) {
    console.error(`API report: the entry points cannot be read:\n- ${problems.join('\n- ')}`);
    process.exit(1);
  }
  const stale = existsSync(reportDir)
    ? readdirSync(reportDir).filter((name) => name.endsWith('.api.md') && !reports.has(name))
    : [];
  if (update) {
    mkdirSync(reportDir, { recursive: true });
    for (const name of stale) rmSync(join(reportDir, name));
    for (const [name, { text }] of reports) writeFileSync(join(reportDir, name), text);
    console.log(
      `API report written: ${[...reports.keys()].map((n) => relative(root, join(reportDir, n))).join(', ')}`,
    );
    return;
  }
  const failures = [];
  for (const [name, { entry, text }] of reports) {
    const path = join(reportDir, name);
    const checkedIn = existsSync(path) ? readFileSync(path, 'utf8') : '';
    if (checkedIn === text) continue;
    const diff = checkedIn === '' ? ['(no checked-in report)'] : diffLines(checkedIn, text);
    failures.push(
      `${entry.specifier} (${entry.source}) differs from ${relative(root, path)}:\n  ${diff.join('\n  ')}`,
    );
  }
  for (const name of stale)
    failures.push(`${relative(root, join(reportDir, name))} belongs to no entry point of package.json`);
  if (failures.length > 0) {
    console.error(`The public API changed:\n\n${failures.join('\n\n')}\n`);
    console.error(`If the change is meant, run \`${updateCommand}\` and commit api-report/ with it.`);
    process.exit(1);
  }
  const summary = [...reports.values()].map(({ entry, counts }) => `${entry.specifier} ${counts}`);
  console.log(`API report matches: ${summary.join('; ')}.`);
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) await main();
