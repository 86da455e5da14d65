/**
 * One structured model call of the plan loop: JSON in the response format, parsed with a Zod schema.
 * Anything the model sends that does not fit comes back as a problem for the caller's fallback, never
 * as an exception; a failing model is a `ModelError`, as everywhere.
 */
import type { LanguageModelV3, LanguageModelV3Prompt } from '@ai-sdk/provider';
import { z } from 'zod';
import { callModel } from '../../loop/index.js';
import { readStrictAnswer, toStrictJsonSchema } from '../../model/index.js';

export interface StructuredCallOptions<T> {
  model: LanguageModelV3;
  /** The system prompt. */
  system: string;
  /** Conversation and material the decision reads, after the system prompt. */
  context: LanguageModelV3Prompt;
  phase: string;
  name: string;
  schema: z.ZodType<T>;
  stream?: boolean;
  signal?: AbortSignal;
  /** Receives the answer's JSON text as it streams. */
  onTextDelta?: (delta: string) => void;
}

export type StructuredResult<T> =
  | { ok: true; value: T; text: string }
  | { ok: false; problem: string; text: string };

/** A decision schema as JSON Schema, and the strict form the model is sent (ADR 0058). */
interface ConvertedSchema {
  original: Record<string, unknown>;
  strict: Record<string, unknown>;
}

/** JSON Schemas of the decision schemas, converted once: a conversion costs milliseconds, a lookup nothing. */
const jsonSchemas = new WeakMap<z.ZodType, ConvertedSchema>();

function jsonSchemaOf(schema: z.ZodType): ConvertedSchema {
  let converted = jsonSchemas.get(schema);
  if (!converted) {
    const original = z.toJSONSchema(schema, { target: 'draft-7' }) as Record<string, unknown>;
    converted = { original, strict: toStrictJsonSchema(original) };
    jsonSchemas.set(schema, converted);
  }
  return converted;
}

export async function callStructured<T>(options: StructuredCallOptions<T>): Promise<StructuredResult<T>> {
  const schema = jsonSchemaOf(options.schema);
  const response = await callModel({
    model: options.model,
    prompt: [{ role: 'system', content: options.system }, ...options.context],
    phase: options.phase,
    responseFormat: {
      type: 'json',
      name: options.name,
      schema: schema.strict,
    },
    ...(options.stream ? { stream: true } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onTextDelta ? { onTextDelta: options.onTextDelta } : {}),
  });
  const text = response.text.trim();
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end < start) return { ok: false, problem: 'the answer holds no JSON object', text };
  let raw: unknown;
  try {
    raw = JSON.parse(text.slice(start, end + 1));
  } catch {
    return { ok: false, problem: 'the answer is not valid JSON', text };
  }
  const parsed = options.schema.safeParse(readStrictAnswer(raw, schema.original));
  if (!parsed.success) {
    const issues = parsed.error.issues
      .map((i) => `${i.path.join('.') || '(answer)'}: ${i.message}`)
      .join('; ');
    return { ok: false, problem: `the answer does not fit the schema: ${issues}`, text };
  }
  return { ok: true, value: parsed.data, text };
}
