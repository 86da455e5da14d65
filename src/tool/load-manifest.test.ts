import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../errors/index.js';
import { executeToolBatch } from './execute-tool-batch.js';
import { call, createTestContext } from './fixtures/batch-context.js';
import { loadManifest, readManifest } from './load-manifest.js';

const dir = join(import.meta.dirname, 'fixtures', 'manifests');
const implementations = {
  find_flights: () => ({ flights: [{ number: 'TP1', price: 120 }] }),
  book_flight: (input: unknown) => `booked ${(input as { flight: string }).flight}`,
};

async function problemsOf(promise: Promise<unknown>): Promise<string[]> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!ConfigurationError.isInstance(error))
    throw new Error(`expected a ConfigurationError, got ${String(error)}`);
  return error.problems;
}

describe('loadManifest', () => {
  it('loads a YAML manifest with JSON Schema files and defaults, and its tools run through the pipeline', async () => {
    const tools = await loadManifest(join(dir, 'travel.yaml'), { implementations });
    expect(tools.map((t) => [t.name, t.timeoutMs, t.capability, t.idempotent, t.parallel])).toEqual([
      ['find_flights', 8000, 'safe', true, true],
      ['book_flight', 20000, 'restricted', false, true],
    ]);
    expect(tools[1]).toMatchObject({
      accessesPrivateData: true,
      rateLimit: { limit: 30, windowMs: 3_600_000 },
    });
    const results = await executeToolBatch(
      [
        call('find_flights', { from: 'OSL', to: 'LIS', date: '2026-12-05' }),
        call('find_flights', { from: 'oslo', to: 'LIS', date: '2026-12-05' }, 'bad'),
        call('book_flight', { flight: 'TP1', passenger: 'Ana' }),
      ],
      createTestContext(tools),
    );
    expect(results.map((r) => r.status)).toEqual(['success', 'error', 'success']);
    expect(results[1]?.contextText).toContain('/from must match pattern');
  });

  it('loads the same tool from JSON', async () => {
    const specs = await readManifest(join(dir, 'travel.json'));
    expect(specs).toHaveLength(1);
    expect(specs[0]).toMatchObject({
      name: 'find_flights',
      timeoutMs: 8000,
      idempotent: true,
      capability: 'safe',
    });
  });

  it('refuses an invalid manifest and lists every problem', async () => {
    const problems = await problemsOf(readManifest(join(dir, 'invalid.yaml')));
    const expected = [
      "tools[0] 'no_timeout': timeoutMs is missing",
      "tools[1] 'bad_schema_file': inputSchema file 'schemas/broken.input.json' is not valid JSON",
      "tools[2] 'uncompilable': inputSchema does not compile",
      "tools[3] 'bad_level': capability 'admin' is unknown",
      "tools[4] 'huge_timeout': timeoutMs must be an integer in 1..2147483647 (got 2147483648)",
      "tools[5] 'missing_file': inputSchema file 'schemas/nowhere.json' cannot be read",
      "tools[6] 'snake': unknown field 'timeout_ms' (did you mean 'timeoutMs'?)",
      "tools[7] 'no_timeout'.timeoutMs: Invalid input: expected number",
      "tools[8] 'bad name!': name 'bad name!' must start with a letter",
      "tools[8] 'bad name!': description must be a non-empty string",
      "tools[8] 'bad name!': inputSchema must describe an object",
    ];
    for (const fragment of expected)
      expect(
        problems.some((p) => p.includes(fragment)),
        fragment,
      ).toBe(true);
    expect(problems.length).toBeGreaterThanOrEqual(expected.length);
  });

  it('reports a duplicate name', async () => {
    const file = writeManifest(`version: 1
defaults: { timeoutMs: 100 }
tools:
  - { name: a, description: A., inputSchema: { type: object } }
  - { name: a, description: A again., inputSchema: { type: object } }
`);
    expect(await problemsOf(readManifest(file))).toEqual(["tools[1] 'a': another tool has the same name"]);
  });

  it('refuses a tool without implementation and an implementation without tool', async () => {
    const problems = await problemsOf(
      loadManifest(join(dir, 'travel.yaml'), {
        implementations: { find_flights: implementations.find_flights, cancel: () => 1 },
      }),
    );
    expect(problems).toEqual([
      "tool 'book_flight': no implementation was given",
      "implementation 'cancel' has no tool in the manifest",
    ]);
  });

  it.each([
    ['a missing file', join(dir, 'nope.yaml'), 'cannot read the file'],
    ['YAML that does not parse', writeManifest('version: 1\ntools: [\n  - {'), 'not valid YAML'],
    ['JSON that does not parse', writeManifest('{"version": 1,', '.json'), 'not valid JSON'],
    ['a wrong version', writeManifest('version: 2\ntools: []'), 'version'],
    ['no tools', writeManifest('version: 1\ntools: []'), 'tools'],
    ['a duplicate YAML key', writeManifest('version: 1\nversion: 1\ntools: []'), 'not valid YAML'],
  ])('refuses %s with a typed error', async (_label, file, fragment) => {
    const problems = await problemsOf(readManifest(file));
    expect(problems.join('\n')).toContain(fragment);
  });
});

function writeManifest(text: string, extension = '.yaml'): string {
  const file = join(mkdtempSync(join(tmpdir(), 'flowstack-manifest-')), `tools${extension}`);
  writeFileSync(file, text);
  return file;
}
