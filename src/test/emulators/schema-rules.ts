/**
 * The JSON Schema rules the provider emulators enforce, as the providers document them: OpenAI's strict
 * mode (structured outputs and strict function tools) and Anthropic's structured outputs. Each check
 * returns the first problem in words close to the provider's own message, or `undefined`.
 */

type Schema = Record<string, unknown>;

const jsonTypes = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

/** Keywords OpenAI's strict mode does not accept. */
const openAIUnsupported = [
  'allOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  'patternProperties',
  'propertyNames',
  'dependentRequired',
  'dependentSchemas',
  'unevaluatedProperties',
];

/** Keywords Anthropic's structured outputs do not accept (the client strips most of them). */
const anthropicUnsupported = [
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'maxItems',
  'patternProperties',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
];

/** OpenAI strict mode: an object root, every object closed and listing every property in `required`. */
export function findOpenAIStrictProblem(schema: unknown): string | undefined {
  if (!isSchema(schema)) return 'schema must be a JSON Schema object';
  if (schema.type !== 'object' || 'anyOf' in schema)
    return 'schema must be a JSON Schema of \'type: "object"\', got a different root';
  return walk(schema, schema, [], (node, path) => {
    for (const keyword of openAIUnsupported)
      if (keyword in node) return `In context=(${path}), '${keyword}' is not permitted`;
    const types = typeList(node);
    for (const type of types) if (!jsonTypes.has(type)) return `In context=(${path}), unknown type '${type}'`;
    if (types.includes('object') || 'properties' in node) {
      if (node.additionalProperties !== false)
        return `In context=(${path}), 'additionalProperties' is required to be supplied and to be false`;
      const properties = isSchema(node.properties) ? Object.keys(node.properties) : [];
      const required = Array.isArray(node.required) ? (node.required as string[]) : [];
      const missing = properties.find((name) => !required.includes(name));
      if (missing !== undefined)
        return `In context=(${path}), 'required' is required to be supplied and to be an array including every key in properties. Missing '${missing}'`;
      const extra = required.find((name) => !properties.includes(name));
      if (extra !== undefined) return `In context=(${path}), Extra required key '${extra}' supplied`;
    }
    if (types.includes('array') && !isSchema(node.items))
      return `In context=(${path}), array schema missing items`;
    if (types.length === 0 && !('anyOf' in node) && !('$ref' in node) && !('enum' in node))
      return `In context=(${path}), schema must have a 'type' key`;
    return undefined;
  });
}

/** Anthropic structured outputs: every object closed, no recursion, none of the unsupported constraints. */
export function findAnthropicSchemaProblem(schema: unknown): string | undefined {
  if (!isSchema(schema)) return 'output_config.format.schema: must be an object';
  if (JSON.stringify(schema).includes('"$ref"') && hasRecursion(schema))
    return 'output_config.format.schema: recursive schemas are not supported';
  return walk(schema, schema, [], (node, path) => {
    for (const keyword of anthropicUnsupported)
      if (keyword in node) return `output_config.format.schema: ${path}: '${keyword}' is not supported`;
    if (typeof node.minItems === 'number' && node.minItems > 1)
      return `output_config.format.schema: ${path}: minItems above 1 is not supported`;
    if ((typeList(node).includes('object') || 'properties' in node) && node.additionalProperties !== false)
      return `output_config.format.schema: ${path}: objects must set additionalProperties to false`;
    return undefined;
  });
}

function walk(
  node: Schema,
  root: Schema,
  path: string[],
  check: (node: Schema, path: string) => string | undefined,
): string | undefined {
  const problem = check(node, path.join('.') || 'root');
  if (problem) return problem;
  const children: [string, unknown][] = [];
  if (isSchema(node.properties))
    for (const [name, child] of Object.entries(node.properties)) children.push([`properties.${name}`, child]);
  if (isSchema(node.items)) children.push(['items', node.items]);
  if (isSchema(node.additionalProperties)) children.push(['additionalProperties', node.additionalProperties]);
  for (const keyword of ['anyOf', 'oneOf', 'allOf'])
    if (Array.isArray(node[keyword]))
      (node[keyword] as unknown[]).forEach((child, index) => {
        children.push([`${keyword}.${index}`, child]);
      });
  for (const keyword of ['$defs', 'definitions'])
    if (isSchema(node[keyword]))
      for (const [name, child] of Object.entries(node[keyword] as Schema))
        children.push([`${keyword}.${name}`, child]);
  for (const [step, child] of children) {
    if (!isSchema(child)) continue;
    const found = walk(child, root, [...path, step], check);
    if (found) return found;
  }
  return undefined;
}

/** Whether a definition refers to itself, directly or through others. */
function hasRecursion(root: Schema): boolean {
  const definitions = { ...(root.$defs as Schema | undefined), ...(root.definitions as Schema | undefined) };
  const refersTo = (node: unknown): string[] =>
    [...JSON.stringify(node ?? null).matchAll(/"\$ref":"#\/(?:\$defs|definitions)\/([^"]+)"/g)].map(
      (m) => m[1] as string,
    );
  const visit = (name: string, seen: Set<string>): boolean => {
    if (seen.has(name)) return true;
    return refersTo(definitions[name]).some((next) => visit(next, new Set([...seen, name])));
  };
  return Object.keys(definitions).some((name) => visit(name, new Set()));
}

function allowsNull(schema: unknown): boolean {
  if (!isSchema(schema)) return false;
  if (typeList(schema).includes('null')) return true;
  return Array.isArray(schema.anyOf) && schema.anyOf.some((s) => isSchema(s) && s.type === 'null');
}

function typeList(node: Schema): string[] {
  if (typeof node.type === 'string') return [node.type];
  return Array.isArray(node.type) ? (node.type as string[]) : [];
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * What a provider that constrains its output to the schema lets through of an answer: keys the schema
 * does not list are gone (an object with no listed keys comes out empty), and a required nullable key it
 * left out is written as null. This is how a real model under structured output loses a value the
 * schema has no room for, and fills the keys it must write.
 */
export function constrainToSchema(value: unknown, schema: unknown, root: unknown = schema): unknown {
  if (!isSchema(schema)) return value;
  if (typeof schema.$ref === 'string' && isSchema(root)) {
    const parts = schema.$ref.replace(/^#\//, '').split('/');
    let target: unknown = root;
    for (const part of parts) target = isSchema(target) ? target[part] : undefined;
    return constrainToSchema(value, target, root);
  }
  if (Array.isArray(value) && isSchema(schema.items))
    return value.map((item) => constrainToSchema(item, schema.items, root));
  const isObject = typeList(schema).includes('object') || isSchema(schema.properties);
  if (isObject && isSchema(value) && schema.additionalProperties === false) {
    const properties = isSchema(schema.properties) ? schema.properties : {};
    const kept = Object.entries(value)
      .filter(([key]) => key in properties)
      .map(([key, child]) => [key, constrainToSchema(child, properties[key], root)]);
    // A required key the answer left out is written as null where the schema allows it, as strict decoding does.
    const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
    for (const key of required) if (!(key in value) && allowsNull(properties[key])) kept.push([key, null]);
    return Object.fromEntries(kept);
  }
  return value;
}
