/** A JSON Schema document (draft 2020-12 or 07), kept as plain data. */
export type JsonSchema = { readonly [key: string]: unknown } | boolean;

/** Any value that survives `JSON.stringify` / `JSON.parse` unchanged. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
