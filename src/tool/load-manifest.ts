/**
 * Tool manifests: tools declared in a YAML or JSON file whose entries point to JSON Schema files
 * (seed 000 tool manifest; DESIGN.md §4 fields). `readManifest` checks a file and returns the tool
 * specs; `loadManifest` also binds each tool to its implementation. A manifest with any problem is
 * refused as a whole, and the `ConfigurationError` lists every problem at once.
 *
 * @example
 * # tools.yaml
 * version: 1
 * defaults: { timeoutMs: 10000 }
 * tools:
 *   - name: find_flights
 *     description: Find flights between two airports on a date.
 *     inputSchema: schemas/find-flights.input.json
 *     idempotent: true
 *     capability: safe
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, extname, resolve } from 'node:path';
import { ConfigurationError } from '../errors/index.js';
import type { JsonSchema, ToolSpec } from '../spec/index.js';
import { checkToolSpec } from './internal/check-tool-spec.js';
import {
  describeIssues,
  type ManifestDefaults,
  type ManifestEntry,
  manifestEntrySchema,
  manifestSchema,
} from './internal/manifest-schema.js';
import { toolDefaults } from './tool-defaults.js';
import type { ToolDefinition } from './tool-definition.js';

/** The function behind each manifest tool, by tool name. */
export type ToolImplementations = Record<string, ToolDefinition['execute']>;

export interface LoadManifestOptions {
  implementations: ToolImplementations;
}

/** Reads, checks and binds a manifest: every tool must have an implementation and every implementation a tool. */
export async function loadManifest(path: string, options: LoadManifestOptions): Promise<ToolDefinition[]> {
  const { specs, problems } = await checkManifest(path);
  const implementations = new Map(Object.entries(options.implementations));
  for (const spec of specs) {
    // A blocking tool's result is a person's answer: it has nothing to implement.
    if (typeof implementations.get(spec.name) !== 'function' && !spec.blocking)
      problems.push(`tool '${spec.name}': no implementation was given`);
  }
  const names = new Set(specs.map((s) => s.name));
  for (const name of implementations.keys())
    if (!names.has(name)) problems.push(`implementation '${name}' has no tool in the manifest`);
  if (problems.length > 0) throw invalid(path, problems);
  return specs.map((spec) => ({
    ...spec,
    execute: (implementations.get(spec.name) ?? blockingExecute(spec.name)) as ToolDefinition['execute'],
  }));
}

function blockingExecute(name: string) {
  return () => {
    throw new Error(`Tool '${name}' is blocking: a person's answer is its result, it never runs.`);
  };
}

/** Reads and checks a manifest; returns its tool specs or throws listing every problem. */
export async function readManifest(path: string): Promise<ToolSpec[]> {
  const { specs, problems } = await checkManifest(path);
  if (problems.length > 0) throw invalid(path, problems);
  return specs;
}

async function checkManifest(path: string): Promise<{ specs: ToolSpec[]; problems: string[] }> {
  const problems: string[] = [];
  const document = await readDocument(path, problems);
  if (problems.length > 0) return { specs: [], problems };
  const parsed = manifestSchema.safeParse(document);
  if (!parsed.success) return { specs: [], problems: describeIssues('', parsed.error) };
  const { defaults = {}, tools } = parsed.data;
  const baseDir = dirname(resolve(path));
  const specs: ToolSpec[] = [];
  const seen = new Set<string>();
  for (const [index, raw] of tools.entries()) {
    const rawName = (raw as { name?: unknown } | null)?.name;
    const named = `tools[${index}]${typeof rawName === 'string' ? ` '${rawName}'` : ''}`;
    const entry = manifestEntrySchema.safeParse(raw);
    if (!entry.success) {
      problems.push(...describeIssues(named, entry.error));
      continue;
    }
    const entryProblems: string[] = [];
    const spec = await toSpec(entry.data, defaults, baseDir, entryProblems);
    entryProblems.push(...checkToolSpec(spec));
    if (seen.has(entry.data.name)) entryProblems.push('another tool has the same name');
    seen.add(entry.data.name);
    problems.push(...entryProblems.map((p) => `${named}: ${p}`));
    if (entryProblems.length === 0) specs.push(spec);
  }
  return { specs, problems };
}

async function readDocument(path: string, problems: string[]): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    problems.push(`cannot read the file: ${(error as Error).message}`);
    return undefined;
  }
  if (extname(path).toLowerCase() === '.json') {
    try {
      return JSON.parse(text);
    } catch (error) {
      problems.push(`not valid JSON: ${(error as Error).message}`);
      return undefined;
    }
  }
  // The YAML parser loads with the first manifest read, not with flowstack.
  const { parseDocument } = createRequire(import.meta.url)('yaml') as typeof import('yaml');
  const document = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  for (const error of document.errors) problems.push(`not valid YAML: ${error.message.split('\n')[0]}`);
  return document.toJS();
}

async function toSpec(
  entry: ManifestEntry,
  defaults: ManifestDefaults,
  baseDir: string,
  problems: string[],
): Promise<ToolSpec> {
  const merged = { ...defaults, ...withoutUndefined(entry) };
  const inputSchema = await loadSchema('inputSchema', entry.inputSchema, baseDir, problems);
  const outputSchema =
    entry.outputSchema === undefined
      ? undefined
      : await loadSchema('outputSchema', entry.outputSchema, baseDir, problems);
  if (merged.timeoutMs === undefined)
    problems.push('timeoutMs is missing: every manifest tool needs a timeout (or give one under defaults)');
  // A schema or timeout already reported stands in as a valid placeholder, so that the other fields
  // are still checked and every problem is listed.
  const idempotent = merged.idempotent ?? false;
  const spec: ToolSpec = {
    specVersion: 1,
    id: entry.id ?? entry.name,
    name: entry.name,
    description: entry.description,
    inputSchema: inputSchema ?? { type: 'object' },
    idempotent,
    timeoutMs: merged.timeoutMs ?? toolDefaults.timeoutMs,
    capability: (merged.capability ?? toolDefaults.capability) as ToolSpec['capability'],
    accessesPrivateData: merged.accessesPrivateData ?? false,
    receivesUntrustedInput: merged.receivesUntrustedInput ?? false,
    communicatesExternally: merged.communicatesExternally ?? false,
    requiresApproval: merged.requiresApproval ?? false,
    maxRetries: merged.maxRetries ?? toolDefaults.maxRetries,
    parallel: merged.parallel ?? true,
  };
  if (entry.title !== undefined) spec.title = entry.title;
  if (outputSchema !== undefined) spec.outputSchema = outputSchema;
  if (merged.rateLimit) spec.rateLimit = merged.rateLimit;
  if (merged.cacheTtlMs !== undefined) spec.cacheTtlMs = merged.cacheTtlMs;
  if (entry.blocking) spec.blocking = entry.blocking as unknown as ToolSpec['blocking'] & object;
  if (entry.touches) spec.touches = entry.touches;
  return spec;
}

async function loadSchema(
  label: string,
  ref: string | boolean | Record<string, unknown>,
  baseDir: string,
  problems: string[],
): Promise<JsonSchema | undefined> {
  if (typeof ref !== 'string') return ref;
  const file = resolve(baseDir, ref);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    problems.push(`${label} file '${ref}' cannot be read`);
    return undefined;
  }
  try {
    const schema: unknown = JSON.parse(text);
    if (
      typeof schema === 'boolean' ||
      (typeof schema === 'object' && schema !== null && !Array.isArray(schema))
    )
      return schema as JsonSchema;
    problems.push(`${label} file '${ref}' does not hold a JSON Schema object`);
  } catch (error) {
    problems.push(`${label} file '${ref}' is not valid JSON: ${(error as Error).message}`);
  }
  return undefined;
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function invalid(path: string, problems: string[]): ConfigurationError {
  return new ConfigurationError({ message: `Tool manifest '${path}' is invalid.`, problems });
}
