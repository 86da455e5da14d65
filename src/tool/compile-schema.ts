/**
 * JSON Schema validation through Ajv (draft 2020-12, which is what Zod emits; a `$schema` naming
 * another draft is ignored). Each schema is compiled once and the validator cached by the schema
 * object's identity, so validation on the hot path costs one lookup and one function call.
 */
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import type { JsonSchema } from '../spec/index.js';
import { createDraft2020Validator } from '../util/index.js';

let ajv: Ajv2020 | undefined;
const cache = new WeakMap<object, SchemaValidator>();
// Ajv keeps every schema it compiled (its code scope holds them), so a schema object made afresh per turn
// (a tool defined per skill run) must not be compiled again: equal schemas share one validator.
const byText = new Map<string, SchemaValidator>();
const booleanValidators = new Map<boolean, SchemaValidator>();

/** Problems are Ajv's messages prefixed with the JSON pointer of the offending value. */
export type SchemaValidator = (value: unknown) => { valid: true } | { valid: false; problems: string[] };

const valid = { valid: true } as const;

/** Compiles a schema, or returns the cached validator (throws Ajv's error if it does not compile). */
export function compileSchema(schema: JsonSchema): SchemaValidator {
  if (typeof schema === 'boolean') {
    const hit = booleanValidators.get(schema);
    if (hit) return hit;
    const validator = toValidator(compileWithAjv(schema));
    booleanValidators.set(schema, validator);
    return validator;
  }
  const hit = cache.get(schema);
  if (hit) return hit;
  const { $schema: _ignored, ...rest } = schema as Record<string, unknown>;
  const text = JSON.stringify(rest);
  const validator = byText.get(text) ?? toValidator(compileWithAjv(rest));
  byText.set(text, validator);
  cache.set(schema, validator);
  return validator;
}

/** Ajv is made with the first schema compiled, so an import of flowstack does not load it. */
function compileWithAjv(schema: boolean | object): ValidateFunction {
  ajv ??= createDraft2020Validator({ allErrors: true, strict: false, validateFormats: false });
  return ajv.compile(schema);
}

function toValidator(validate: ValidateFunction): SchemaValidator {
  return (value) => {
    if (validate(value)) return valid;
    const problems = (validate.errors ?? []).map(describeProblem);
    return { valid: false, problems };
  };
}

/** Ajv's message, plus the detail a model needs to fix it (which property, which values). */
function describeProblem(error: ErrorObject): string {
  const where = error.instancePath || '/';
  const message = error.message ?? 'is invalid';
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties')
    return `${where} ${message}: '${String(params.additionalProperty)}'`;
  if (error.keyword === 'enum' && Array.isArray(params.allowedValues))
    return `${where} ${message}: ${JSON.stringify(params.allowedValues).slice(0, 200)}`;
  return `${where} ${message}`;
}
