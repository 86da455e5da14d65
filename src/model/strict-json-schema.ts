/**
 * The schemas of flowstack's structured model calls, in the subset every provider accepts
 * (docs/decisions/0058-strict-structured-output-schemas.md). `@ai-sdk/openai` sends a response format
 * with OpenAI's strict mode on, which refuses a schema unless every object closes its keys
 * (`additionalProperties: false`) and lists every property in `required`; `@ai-sdk/anthropic` closes
 * every object itself, which turns an open map into "always empty". So the model sees a strict
 * schema — optional properties made nullable, open maps (slot values) as a list of `{ name, value }`
 * pairs, a union of objects as one object — and `readStrictAnswer` turns the answer back into the shape
 * the runtime's own schema (Zod or JSON Schema) checks.
 */

/** A JSON Schema as a plain object. */
export type JsonSchemaObject = Record<string, unknown>;

/** What a slot value may be in a strict answer: a scalar, a list of scalars, or null for "not given". */
export const slotValueSchema: JsonSchemaObject = {
  anyOf: [
    { type: 'string' },
    { type: 'number' },
    { type: 'boolean' },
    { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] } },
    { type: 'null' },
  ],
};

/**
 * The strict schema of a map of slot values: a list of `{ name, value }` pairs. When the slot names are
 * known, `name` is limited to them, so a provider that constrains its output cannot invent one.
 */
export function slotPairsSchema(names: readonly string[] = []): JsonSchemaObject {
  const unique = [...new Set(names)];
  return {
    type: 'array',
    description: 'Slot values as name/value pairs; leave out a slot the message does not state.',
    items: {
      type: 'object',
      properties: {
        name: unique.length > 0 ? { type: 'string', enum: unique } : { type: 'string' },
        value: slotValueSchema,
      },
      required: ['name', 'value'],
      additionalProperties: false,
    },
  };
}

/** Keywords kept in a strict schema; the rest (lengths, bounds, formats, defaults) stay in the runtime's check. */
const keptKeywords = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'anyOf',
  '$ref',
  '$defs',
  'definitions',
  'description',
]);

/** The strict form of a JSON Schema: what the model is sent. The root is always an object. */
export function toStrictJsonSchema(schema: JsonSchemaObject): JsonSchemaObject {
  const root = mergeUnionOfObjects(schema) ?? schema;
  const strict = strictNode(root);
  // Definitions only an open map referred to are gone with it; a provider may refuse unused recursion.
  if (!JSON.stringify({ ...strict, $defs: undefined, definitions: undefined }).includes('"$ref"')) {
    delete strict.$defs;
    delete strict.definitions;
  }
  return strict;
}

/**
 * Reads a strict answer back into the shape of the original schema: nulls in optional properties are
 * dropped and lists of `{ name, value }` pairs become maps again. An answer already in the original
 * shape (a provider that did not constrain its output) passes through unchanged.
 */
export function readStrictAnswer(value: unknown, schema: JsonSchemaObject): unknown {
  const root = mergeUnionOfObjects(schema) ?? schema;
  return readNode(value, root, schema);
}

/** Turns `[{ name, value }]` into `{ name: value }`; a map is returned as it is, anything else as `{}`. */
export function readSlotPairs(value: unknown): Record<string, unknown> {
  if (Array.isArray(value)) {
    const slots: Record<string, unknown> = {};
    for (const pair of value) {
      if (!isRecord(pair) || typeof pair.name !== 'string') continue;
      if (pair.value !== null && pair.value !== undefined) slots[pair.name] = pair.value;
    }
    return slots;
  }
  return isRecord(value) ? value : {};
}

function strictNode(node: JsonSchemaObject): JsonSchemaObject {
  if (isOpenMap(node)) return slotPairsSchema();
  const out: JsonSchemaObject = {};
  for (const [key, value] of Object.entries(node)) if (keptKeywords.has(key)) out[key] = value;
  if ('const' in node) {
    out.enum = [node.const];
    if (out.type === undefined && typeof node.const === 'string') out.type = 'string';
  }
  if (isRecord(node.properties)) {
    const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
    const properties: JsonSchemaObject = {};
    for (const [name, child] of Object.entries(node.properties)) {
      const strict = strictNode(isRecord(child) ? child : {});
      properties[name] = required.has(name) ? strict : nullable(strict);
    }
    out.type = 'object';
    out.properties = properties;
    out.required = Object.keys(properties);
    out.additionalProperties = false;
  }
  if (isRecord(node.items)) out.items = strictNode(node.items);
  const union = node.anyOf ?? node.oneOf;
  if (Array.isArray(union)) out.anyOf = union.map((child) => strictNode(isRecord(child) ? child : {}));
  for (const defs of ['$defs', 'definitions'] as const) {
    const definitions = node[defs];
    if (isRecord(definitions))
      out[defs] = Object.fromEntries(
        Object.entries(definitions).map(([name, child]) => [name, strictNode(isRecord(child) ? child : {})]),
      );
  }
  if (Object.keys(out).length === 0) return slotValueSchema;
  return out;
}

function readNode(value: unknown, strict: JsonSchemaObject, original: JsonSchemaObject): unknown {
  if (isOpenMap(strict)) return readSlotPairs(value);
  if (isRecord(strict.properties) && isRecord(value)) {
    const required = new Set(Array.isArray(strict.required) ? (strict.required as string[]) : []);
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      const childSchema = strict.properties[key];
      if (child === null && !required.has(key)) continue;
      out[key] = isRecord(childSchema) ? readNode(child, childSchema, original) : child;
    }
    return out;
  }
  if (isRecord(strict.items) && Array.isArray(value))
    return value.map((item) => readNode(item, strict.items as JsonSchemaObject, original));
  if (typeof strict.$ref === 'string') {
    const target = resolveReference(original, strict.$ref);
    return target ? readNode(value, target, original) : value;
  }
  return value;
}

/**
 * A union of objects (a discriminated decision) as one object, since a strict root must be an object:
 * every variant's properties, the discriminant an enum of the variants' values, a property required
 * only when every variant requires it.
 */
function mergeUnionOfObjects(schema: JsonSchemaObject): JsonSchemaObject | undefined {
  const variants = schema.anyOf ?? schema.oneOf;
  if (!Array.isArray(variants) || !variants.every((v) => isRecord(v) && isRecord(v.properties)))
    return undefined;
  const properties: Record<string, JsonSchemaObject> = {};
  const requiredCounts = new Map<string, number>();
  for (const variant of variants as JsonSchemaObject[]) {
    for (const [name, child] of Object.entries(variant.properties as JsonSchemaObject)) {
      const childSchema = isRecord(child) ? child : {};
      const known = properties[name];
      if (!known) properties[name] = { ...childSchema };
      else if ('const' in childSchema) {
        const values = known.enum ?? ('const' in known ? [known.const] : []);
        const { const: _first, ...rest } = known;
        properties[name] = { ...rest, enum: [...(values as unknown[]), childSchema.const] };
      }
    }
    for (const name of (variant.required as string[] | undefined) ?? [])
      requiredCounts.set(name, (requiredCounts.get(name) ?? 0) + 1);
  }
  const required = [...requiredCounts].filter(([, n]) => n === variants.length).map(([name]) => name);
  const merged: JsonSchemaObject = { type: 'object', properties, required, additionalProperties: false };
  for (const defs of ['$defs', 'definitions']) if (schema[defs]) merged[defs] = schema[defs];
  return merged;
}

/** An object whose keys are not listed: a map such as slot values. */
function isOpenMap(node: JsonSchemaObject): boolean {
  const isObject = node.type === 'object' || (Array.isArray(node.type) && node.type.includes('object'));
  return isObject && !isRecord(node.properties) && node.additionalProperties !== false;
}

function nullable(schema: JsonSchemaObject): JsonSchemaObject {
  if (typeof schema.type === 'string' && !Array.isArray(schema.anyOf)) {
    const out: JsonSchemaObject = { ...schema, type: [schema.type, 'null'] };
    if (Array.isArray(schema.enum)) out.enum = [...schema.enum, null];
    return out;
  }
  if (Array.isArray(schema.anyOf)) {
    if (schema.anyOf.some((s) => isRecord(s) && s.type === 'null')) return schema;
    return { ...schema, anyOf: [...schema.anyOf, { type: 'null' }] };
  }
  return { anyOf: [schema, { type: 'null' }] };
}

function resolveReference(root: JsonSchemaObject, reference: string): JsonSchemaObject | undefined {
  if (!reference.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const part of reference.slice(2).split('/')) node = isRecord(node) ? node[part] : undefined;
  return isRecord(node) ? node : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
