/**
 * A fast, allocation-free first check of a snapshot's shape: the Zod schema of `thread-snapshot-schema.ts`
 * turned into JSON Schema by Zod itself and compiled once by Ajv. Zod's `safeParse` builds a full copy of
 * the snapshot on every call, and the agent checks each snapshot twice per turn (two commits), so on the
 * hot path Ajv answers and Zod is asked only when Ajv refuses, for the verdict and its messages
 * (docs/decisions/0039-snapshot-shape-check.md). Numbers are strict (NaN and ±Infinity are refused, as Zod
 * refuses them).
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { z } from 'zod';
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
  const ajv = new Ajv2020({ strict: false, strictNumbers: true, allErrors: false, validateFormats: false });
  return ajv.compile(schema);
}
