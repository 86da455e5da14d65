/**
 * What a user gets from `npm install flowstack`: the repository, copied without its dist/ as a fresh
 * clone has none, is packed with `npm pack` (whose prepack step builds), the tarball is installed into
 * an empty project, and plain Node imports the root and every subpath, runs an agent on the scripted
 * model and the README's example, serves the web page with its charting library from the project's own
 * node_modules, and starts without loading what only some agents use; the install stays under 60 MB. The install reads npm's cache first and the registry for what is missing; without
 * either the test is skipped and says so.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { copyFreshClone } from './fixtures/fresh-clone.js';

const root = resolve(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'flowstack-package-'));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Packs the clone; returns the tarball's path and the files it holds. */
function pack(clone: string): { tarball: string; files: string[] } {
  const packed = spawnSync(npm, ['pack', '--json', '--pack-destination', work], {
    cwd: clone,
    encoding: 'utf8',
  });
  if (packed.status !== 0) throw new Error(`npm pack failed:\n${packed.stdout}\n${packed.stderr}`);
  const out = packed.stdout;
  // The JSON follows the build's own output.
  const [listing] = JSON.parse(out.slice(out.indexOf('[\n'))) as Array<{
    filename: string;
    files: Array<{ path: string }>;
  }>;
  if (!listing) throw new Error(`npm pack printed no package: ${out}`);
  return { tarball: join(work, listing.filename), files: listing.files.map((f) => f.path) };
}

/** The bytes of every file under a folder (links not followed). */
function sizeOnDisk(folder: string): number {
  let bytes = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) bytes += sizeOnDisk(path);
    else if (entry.isFile()) bytes += statSync(path).size;
  }
  return bytes;
}

/** The code of the README's five-minute example. */
function readmeExample(): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## A five-minute example'));
  const start = section.indexOf('```ts\n') + '```ts\n'.length;
  return section.slice(start, section.indexOf('```', start));
}

const program = `
import * as flowstack from 'flowstack';
import * as blocks from 'flowstack/blocks';
import * as testing from 'flowstack/test';
import * as server from 'flowstack/server';
import * as postgres from 'flowstack/postgres';
import * as redis from 'flowstack/redis';
import * as bullmq from 'flowstack/bullmq';
import { z } from 'zod';

const { createAgent, createMemoryStore, createSqliteStore, defineFlow, defineTool } = flowstack;
const lookupWeather = defineTool({
  name: 'lookup_weather',
  description: 'Current weather for a city.',
  input: z.object({ city: z.string() }),
  idempotent: true,
  execute: async ({ city }) => ({ city, celsius: 21 }),
});
const getWeather = defineFlow({
  name: 'get_weather',
  intent: 'read',
  description: 'Tell the weather in a city.',
  slots: [{ name: 'city', type: 'text', priority: 'required', description: 'City', question: 'Which city?' }],
  tools: ['lookup_weather'],
  skill: 'Look up the weather in {{city}} and report it.',
});
const model = testing.createScriptedModel({
  steps: [
    { match: { phase: 'predict' }, json: { flow: 'get_weather', slots: { city: 'Oslo' } } },
    { match: { phase: 'skill' }, toolCalls: [{ toolName: 'lookup_weather', input: { city: 'Oslo' } }] },
    { match: { phase: 'skill' }, toolCalls: [{ toolName: 'finish_skill', input: { outcome: 'success', data: { text: 'It is 21 °C in Oslo.' } } }] },
  ],
});
const agent = createAgent({ model, flows: [getWeather], tools: [lookupWeather], store: createMemoryStore() });
const reply = (await agent.send({ threadId: 't1', text: 'Weather in Oslo?' })).reply;
await agent.close();

// The web page loads its charting library from flowstack's server, which reads it from this project's
// node_modules.
const served = server.createServer({
  agent: createAgent({ model, flows: [getWeather], tools: [lookupWeather], store: createMemoryStore() }),
  auth: { tokens: new Map([['page-token-0123456789abcdef', 'ada']]) },
});
const { url } = await served.listen();
const page = await (await fetch(url + '/')).text();
const script = /<script[^>]*src="([^"]*vendor[^"]*)"/.exec(page)?.[1];
const library = script ? await fetch(url + script) : undefined;
const chart = {
  script,
  status: library?.status,
  type: library?.headers.get('content-type'),
  cache: library?.headers.get('cache-control'),
  banner: (await library?.text())?.slice(0, 200),
};
await served.close();

let sqlite = 'opened';
try {
  createSqliteStore({ path: ':memory:' });
} catch (error) {
  sqlite = error.name + ': ' + error.message;
}
// The other optional peers, not installed here either: each first use names its package.
let mcp = 'connected';
try {
  await flowstack.mcpTools({ command: process.execPath, args: ['-e', ''] });
} catch (error) {
  mcp = error.name + ': ' + error.message;
}
let sql = 'checked';
try {
  blocks.checkSql('select 1');
} catch (error) {
  sql = error.name + ': ' + error.message;
}
const subpaths = { blocks, server, postgres, redis, bullmq };
// \`ModelError.isInstance(e)\` compares class names: the build must keep each error class named as exported.
const errorClasses = Object.entries(flowstack).filter(([name, value]) => name.endsWith('Error') && typeof value === 'function');
const misnamed = errorClasses.filter(([name, value]) => value.name !== name).map(([name, value]) => name + ' is ' + value.name);
console.log(JSON.stringify({
  errorClasses: errorClasses.length,
  misnamed,
  reply,
  chart,
  sqlite,
  mcp,
  sql,
  exports: Object.fromEntries(Object.entries(subpaths).map(([name, m]) => [name, Object.keys(m).length])),
}));
`;

/** Records every file module loaded, ES or CommonJS, so that a test can say which packages a start loads. */
const loadHooks = `
import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  if (url.startsWith('file:')) appendFileSync(process.env.LOADED_FILE, url + '\\n');
  return next(url, context);
}
`;
const coldStart = `
import { register, createRequire } from 'node:module';
import { readFileSync, writeFileSync } from 'node:fs';
writeFileSync(process.env.LOADED_FILE, '');
register('./load-hooks.mjs', import.meta.url);
const started = performance.now();
await import('flowstack');
const ms = performance.now() - started;
const loaded = new Set(readFileSync(process.env.LOADED_FILE, 'utf8').split('\\n').filter(Boolean));
for (const file of Object.keys(createRequire(import.meta.url).cache)) loaded.add('file://' + file);
const packages = new Set([...loaded].map((url) => url.match(/node_modules\\/((?:@[^/]+\\/)?[^/]+)/)?.[1] ?? 'own'));
console.log(JSON.stringify({ modules: loaded.size, ms: Math.round(ms), packages: [...packages].sort() }));
`;

/** Packages that only some agents use: none of them may load with \`import('flowstack')\`. */
const loadedOnFirstUse = [
  '@ai-sdk/anthropic',
  '@ai-sdk/openai',
  '@ai-sdk/openai-compatible',
  '@a2a-js/sdk',
  'jose',
  '@modelcontextprotocol/sdk',
  'acorn',
  'acorn-walk',
  'node-sql-parser',
  'cron-parser',
  'luxon',
  'better-sqlite3',
  'yaml',
  'ajv',
  '@opentelemetry/api',
];

describe('the published package', () => {
  it('packs from a fresh clone, installs, imports every entry point and runs an agent', async (context) => {
    const { tarball, files } = pack(copyFreshClone(work));
    expect(files).toContain('dist/src/index.js');
    expect(files).toContain('dist/src/cli/main.js');
    expect(files.filter((f) => /\.test\.|\/fixtures\//.test(f))).toEqual([]);
    expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);

    const project = join(work, 'project');
    mkdirSync(project);
    writeFileSync(
      join(project, 'package.json'),
      '{ "name": "user-project", "private": true, "type": "module" }',
    );
    const install = spawnSync(
      npm,
      ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball],
      { cwd: project, encoding: 'utf8', timeout: 120_000 },
    );
    if (install.status !== 0) {
      const said = `${install.stdout}\n${install.stderr}`;
      if (/ENOTFOUND|EAI_AGAIN|ENOTCACHED|ETIMEDOUT|ECONNREFUSED|ECONNRESET|network/i.test(said))
        return context.skip(`npm could not reach the registry and its cache lacks a package: ${said.trim()}`);
      throw new Error(`npm install of the packed tarball failed:\n${said}`);
    }
    writeFileSync(join(project, 'main.mjs'), program);
    const run = spawnSync(process.execPath, ['main.mjs'], {
      cwd: project,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.stderr).toBe('');
    const result = JSON.parse(run.stdout) as {
      reply: string;
      chart: { script?: string; status?: number; type?: string; cache?: string; banner?: string };
      sqlite: string;
      errorClasses: number;
      misnamed: string[];
      mcp: string;
      sql: string;
      exports: Record<string, number>;
    };
    expect(result.reply).toBe('It is 21 °C in Oslo.');
    expect(result.errorClasses).toBeGreaterThan(10);
    expect(result.misnamed).toEqual([]);
    // The page's charting library: the version installed in the user's project, served by flowstack.
    const charting = JSON.parse(
      readFileSync(join(project, 'node_modules/chart.js/package.json'), 'utf8'),
    ) as { version: string };
    expect(result.chart).toMatchObject({
      script: `/ui/vendor/chart.js/${charting.version}/chart.umd.js`,
      status: 200,
      type: 'text/javascript; charset=utf-8',
      cache: 'public, max-age=31536000, immutable',
    });
    expect(result.chart.banner).toContain(`Chart.js v${charting.version}`);
    // What `npm install flowstack` puts on disk stays small (docs/decisions/0089).
    const installed = sizeOnDisk(join(project, 'node_modules'));
    console.info(`npm install flowstack: ${(installed / 1e6).toFixed(1)} MB of node_modules`);
    expect(installed).toBeLessThan(60e6);
    // better-sqlite3 is an optional peer: not installed here, and the store says what to install.
    expect(result.sqlite).toMatch(
      /^ConfigurationError: better-sqlite3 is not installed.*npm install better-sqlite3/,
    );
    expect(result.mcp).toMatch(
      /^ConfigurationError: @modelcontextprotocol\/sdk is not installed.*npm install @modelcontextprotocol\/sdk/,
    );
    expect(result.sql).toMatch(
      /^ConfigurationError: node-sql-parser is not installed.*npm install node-sql-parser/,
    );
    for (const count of Object.values(result.exports)) expect(count).toBeGreaterThan(0);

    // The README's example, as written but on the in-memory store (better-sqlite3 is not installed here).
    writeFileSync(
      join(project, 'readme.mjs'),
      readmeExample().replaceAll('createSqliteStore', 'createMemoryStore'),
    );
    const readme = spawnSync(process.execPath, ['readme.mjs'], {
      cwd: project,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(readme.stderr).toBe('');
    expect(readme.stdout.trim().split('\n')).toEqual(['Which city?', 'It is 21 °C in Oslo.']);

    // A cold start loads only what every agent needs.
    writeFileSync(join(project, 'load-hooks.mjs'), loadHooks);
    writeFileSync(join(project, 'cold-start.mjs'), coldStart);
    const cold = spawnSync(process.execPath, ['cold-start.mjs'], {
      cwd: project,
      encoding: 'utf8',
      timeout: 30_000,
      env: { ...process.env, LOADED_FILE: join(project, 'loaded.txt') },
    });
    const start = JSON.parse(cold.stdout) as { modules: number; ms: number; packages: string[] };
    expect(start.packages).toContain('flowstack');
    expect(start.packages.filter((name) => loadedOnFirstUse.includes(name))).toEqual([]);
  }, 180_000);
});
