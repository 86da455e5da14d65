/**
 * A first check of a snapshot's shape: the Zod schema of `thread-snapshot-schema.ts`, turned into JSON
 * Schema by Zod and compiled once by Ajv. Every load and every commit checks the snapshot (DESIGN.md
 * invariant 10), and Zod's parse builds a copy of the whole snapshot to do it; Ajv checks it in place, and
 * Zod is asked only when Ajv refuses, for the verdict and its messages
 * (docs/decisions/0039-snapshot-check-by-ajv-and-per-run-objects.md, the point that stands). Numbers are
 * strict: NaN and ±Infinity are refused, as Zod refuses them. The unions of the schema (the dialogue
 * changes, told apart by `op`) are marked with Ajv's `discriminator`, so a change is checked against its
 * own branch only.
 */
import type { ValidateFunction } from 'ajv/dist/ajv.js';
import { z } from 'zod';
import { createDraft07Validator } from '../../util/index.js';
import { threadSnapshotSchema } from '../thread-snapshot-schema.js';

let compiled: ValidateFunction | undefined;

/** Whether the value has the shape of a `ThreadSnapshot` v1; `false` means "ask Zod", not "invalid". */
export function looksLikeSnapshot(value: unknown): boolean {
  compiled ??= compile();
  return compiled(value) === true;
}

function compile(): ValidateFunction {
  const { $schema: _draft, ...schema } = z.toJSONSchema(threadSnapshotSchema, {
    io: 'input',
    unrepresentable: 'throw',
  }) as Record<string, unknown>;
  markDiscriminators(schema);
  const ajv = createDraft07Validator({
    strict: false,
    strictNumbers: true,
    allErrors: false,
    discriminator: true,
    messages: false,
    validateFormats: false,
  });
  return ajv.compile(schema);
}

/** Adds `discriminator` to every `oneOf` whose branches all require one property with a constant value. */
function markDiscriminators(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) markDiscriminators(item);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const schema = node as Record<string, unknown>;
  if (Array.isArray(schema.oneOf)) {
    const tags = schema.oneOf.map(constantRequiredKeys);
    const shared = tags[0]?.find((key) => tags.every((keys) => keys.includes(key)));
    if (shared !== undefined) schema.discriminator = { propertyName: shared };
  }
  for (const value of Object.values(schema)) markDiscriminators(value);
}

function constantRequiredKeys(branch: unknown): string[] {
  const { properties, required } = (branch ?? {}) as {
    properties?: Record<string, { const?: unknown }>;
    required?: string[];
  };
  if (!properties || !Array.isArray(required)) return [];
  return Object.keys(properties).filter(
    (key) => properties[key]?.const !== undefined && required.includes(key),
  );
}
