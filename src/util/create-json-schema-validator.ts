/**
 * Ajv, the JSON Schema validator, loads when the first schema is compiled — a tool's input check, a
 * question's answer schema, a stored snapshot's shape — not when flowstack is imported: an Ajv instance
 * compiles JSON Schema's own meta-schemas when it is made, and a serverless function's cold start would pay
 * for that before its first request (docs/decisions/0084-a-bundled-build-and-ajv-on-first-use.md).
 * Each caller keeps the instance this returns; only the package's loading is shared.
 */
import { createRequire } from 'node:module';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { Ajv, Options } from 'ajv/dist/ajv.js';

const requireFromHere = createRequire(import.meta.url);

/** An Ajv instance for JSON Schema draft 2020-12, the draft Zod emits and tool schemas are read as. */
export function createDraft2020Validator(options: Options): Ajv2020 {
  const ajv2020 = requireFromHere('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  return new ajv2020.Ajv2020(options);
}

/** An Ajv instance for draft-07 schemas, with the keywords (such as `discriminator`) its options turn on. */
export function createDraft07Validator(options: Options): Ajv {
  const ajv = requireFromHere('ajv/dist/ajv.js') as typeof import('ajv/dist/ajv.js');
  return new ajv.Ajv(options);
}
