/**
 * Reads a tool's schema, whichever library wrote it, into the two things flowstack needs: the JSON
 * Schema the model sees and, where the schema's own library can check a value, a parser that enforces
 * it (refinements, transforms, defaults — docs/decisions/0054). Accepted: Zod 4 (classic and mini), any
 * Standard Schema that offers JSON Schema (`~standard.jsonSchema`: Zod 4.2+, ArkType, Valibot through
 * `toStandardJsonSchema`), ArkType's own `toJsonSchema()`, Zod 3 with `zod-to-json-schema` installed, the
 * AI SDK's `jsonSchema()` objects, and plain JSON Schema. Anything else is a listed problem that names
 * what was given, never a schema made of the object's internals
 * (docs/decisions/0072-schemas-and-tools-from-other-libraries.md).
 */
import { z } from 'zod';
import type { JsonSchema } from '../spec/index.js';
import { requireOptionalPeer } from '../util/index.js';
import type { ToolInputVerdict } from './tool-definition.js';

/** A schema of the Standard Schema interface (standardschema.dev), as far as flowstack reads it. */
export interface StandardSchemaLike<Output = unknown> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly types?: { readonly input: unknown; readonly output: Output } | undefined;
    readonly jsonSchema?: { readonly input: (options: { target: string }) => Record<string, unknown> };
  };
}

type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | {
      readonly issues: ReadonlyArray<{
        message: string;
        path?: ReadonlyArray<PropertyKey | { key: PropertyKey }>;
      }>;
    };

/** The AI SDK's `jsonSchema(…)` object: JSON Schema, and optionally its own check. */
export interface AiSdkSchemaLike<Output = unknown> {
  readonly jsonSchema: unknown;
  readonly validate?: (value: unknown) => AiSdkValidation<Output> | PromiseLike<AiSdkValidation<Output>>;
}

type AiSdkValidation<Output> = { success: true; value: Output } | { success: false; error: Error };

/** What a tool's `input` or `output` may be. */
export type SchemaSource<T> = z.ZodType<T> | StandardSchemaLike<T> | AiSdkSchemaLike<T> | JsonSchema;

export interface ReadSchema {
  jsonSchema: JsonSchema;
  /** The schema library's own check of a value, when it has one. */
  parse?: (value: unknown) => ToolInputVerdict | Promise<ToolInputVerdict>;
}

const aiSdkSchemaMarker = Symbol.for('vercel.ai.schema');

/** Reads `schema` (the tool's `label` schema); what cannot be read is pushed onto `problems`. */
export function readSchema(label: 'input' | 'output', schema: unknown, problems: string[]): ReadSchema {
  try {
    if (isZod4(schema)) return { jsonSchema: zod4JsonSchema(label, schema), parse: standardParser(schema) };
    if (isAiSdkSchema(schema)) return readAiSdkSchema(schema);
    if (isStandardSchema(schema))
      return { jsonSchema: standardJsonSchema(schema), parse: standardParser(schema) };
  } catch (error) {
    problems.push(`${label} schema cannot be expressed as JSON Schema: ${(error as Error).message}`);
    return { jsonSchema: {} };
  }
  const notData =
    typeof schema === 'object' && schema !== null && !Array.isArray(schema)
      ? whyNotJsonSchema(schema, '')
      : `it is ${schema === null ? 'null' : Array.isArray(schema) ? 'an array' : `a ${typeof schema}`}`;
  if (notData === undefined || typeof schema === 'boolean') return { jsonSchema: schema as JsonSchema };
  problems.push(
    `${label} schema is not one flowstack can read: ${notData}. Give a Zod schema, a Standard Schema that offers JSON Schema, the AI SDK's jsonSchema(…), or a plain JSON Schema object`,
  );
  return { jsonSchema: {} };
}

function isZod4(schema: unknown): schema is z.ZodType {
  return typeof schema === 'object' && schema !== null && '_zod' in schema && '~standard' in schema;
}

function isAiSdkSchema(schema: unknown): schema is AiSdkSchemaLike {
  return (
    typeof schema === 'object' && schema !== null && aiSdkSchemaMarker in schema && 'jsonSchema' in schema
  );
}

function isStandardSchema(schema: unknown): schema is StandardSchemaLike {
  const standard = (schema as { '~standard'?: { validate?: unknown } } | null)?.['~standard'];
  return (
    (typeof schema === 'object' || typeof schema === 'function') && typeof standard?.validate === 'function'
  );
}

/**
 * An input schema is projected as the model writes it (`io: 'input'`): a field with a default is
 * optional and a transform is described by what it accepts. A plain `z.object` still refuses unknown
 * keys, so that a misspelt argument is named to the model rather than dropped.
 */
function zod4JsonSchema(label: 'input' | 'output', schema: z.ZodType): JsonSchema {
  if (label === 'output') return z.toJSONSchema(schema, { target: 'draft-2020-12' }) as JsonSchema;
  return z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'input',
    override: ({ zodSchema, jsonSchema }) => {
      const def = zodSchema._zod.def;
      if (def.type === 'object' && def.catchall === undefined) jsonSchema.additionalProperties = false;
    },
  }) as JsonSchema;
}

/** The vendor's own converter: Standard JSON Schema first, then the ones known by vendor. */
function standardJsonSchema(schema: StandardSchemaLike): JsonSchema {
  const standard = schema['~standard'];
  if (typeof standard.jsonSchema?.input === 'function')
    return standard.jsonSchema.input({ target: 'draft-2020-12' });
  const ownConverter = (schema as { toJsonSchema?: unknown }).toJsonSchema;
  if (standard.vendor === 'arktype' && typeof ownConverter === 'function')
    return ownConverter.call(schema) as JsonSchema;
  if (standard.vendor === 'zod') {
    // Zod 3 has no converter of its own.
    const { zodToJsonSchema } = requireOptionalPeer<{ zodToJsonSchema(schema: unknown): JsonSchema }>({
      specifier: 'zod-to-json-schema',
      packageName: 'zod-to-json-schema',
      neededFor: 'to use Zod 3 schemas (or upgrade to Zod 4)',
    });
    return zodToJsonSchema(schema);
  }
  const hint =
    standard.vendor === 'valibot'
      ? ' (wrap it with toStandardJsonSchema() from @valibot/to-json-schema)'
      : '';
  throw new Error(
    `a '${standard.vendor}' Standard Schema that offers no JSON Schema (no ~standard.jsonSchema)${hint}`,
  );
}

/**
 * Problems as `/path message`, the way the JSON Schema check says them. A Standard Schema's `validate`
 * answers at once unless the schema has asynchronous refinements, and so does the parser: a tool's call
 * then waits for nothing between its checks (the pipeline awaits only a stage that waits).
 */
function standardParser(schema: StandardSchemaLike): ReadSchema['parse'] {
  return (value) => {
    const result = schema['~standard'].validate(value);
    return isThenable(result) ? Promise.resolve(result).then(toVerdict) : toVerdict(result);
  };
}

function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

function toVerdict(result: StandardResult<unknown>): ToolInputVerdict {
  if (result.issues === undefined) return { valid: true, value: result.value };
  const problems = result.issues.map((issue) => {
    const path = (issue.path ?? [])
      .map((part) => String(typeof part === 'object' ? part.key : part))
      .join('/');
    return `/${path} ${issue.message}`;
  });
  return { valid: false, problems };
}

function readAiSdkSchema(schema: AiSdkSchemaLike): ReadSchema {
  const jsonSchema = schema.jsonSchema;
  const notData = whyNotJsonSchema(jsonSchema, '');
  if (notData !== undefined) throw new Error(`the AI SDK schema's jsonSchema is not JSON Schema: ${notData}`);
  const validate = schema.validate;
  if (typeof validate !== 'function') return { jsonSchema: jsonSchema as JsonSchema };
  return {
    jsonSchema: jsonSchema as JsonSchema,
    parse: async (value) => {
      const result = await validate(value);
      return result.success
        ? { valid: true, value: result.value }
        : { valid: false, problems: [result.error.message] };
    },
  };
}

/**
 * JSON Schema is data: plain objects, arrays, strings, numbers, booleans and null. A class instance or
 * a function inside is some library's schema object, whose internals would mislead the model.
 */
function whyNotJsonSchema(value: unknown, at: string): string | undefined {
  if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) return undefined;
  if (typeof value === 'function') return `${at || 'it'} is a function`;
  if (typeof value !== 'object') return `${at || 'it'} is a ${typeof value}`;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const why = whyNotJsonSchema(item, `${at}/${index}`);
      if (why) return why;
    }
    return undefined;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null)
    return `${at || 'it'} is an instance of ${prototype?.constructor?.name ?? 'a class'}, not plain data`;
  for (const [key, item] of Object.entries(value)) {
    const why = whyNotJsonSchema(item, `${at}/${key}`);
    if (why) return why;
  }
  return undefined;
}
