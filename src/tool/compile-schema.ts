/**
 * JSON Schema validation through Ajv (draft 2020-12, which is what Zod emits). Each schema is compiled
 * once and cached by identity, so validation on the hot path costs one function call.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { JsonSchema } from '../spec/index.js';

const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
const cache = new WeakMap<object, ValidateFunction>();

export type SchemaValidator = (value: unknown) => { valid: true } | { valid: false; problems: string[] };

/** Compiles a schema (throws Ajv's error if it does not compile). */
export function compileSchema(schema: JsonSchema): SchemaValidator {
  const validate = compileCached(schema);
  return (value) => {
    if (validate(value)) return { valid: true };
    const problems = (validate.errors ?? []).map(
      (e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`,
    );
    return { valid: false, problems };
  };
}

function compileCached(schema: JsonSchema): ValidateFunction {
  if (typeof schema === 'boolean') return ajv.compile(schema);
  const hit = cache.get(schema);
  if (hit) return hit;
  const { $schema: _ignored, ...rest } = schema as Record<string, unknown>;
  const compiled = ajv.compile(rest);
  cache.set(schema, compiled);
  return compiled;
}
