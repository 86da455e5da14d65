/**
 * Validates an answer against the question's feedback schema (Ajv, JSON Schema draft 2020-12). Each
 * schema is compiled once. An answer that does not fit comes back with every problem, for a typed
 * error that says what to send instead.
 */
import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js';
import type { FeedbackSchema } from '../spec/index.js';
import { createDraft2020Validator } from '../util/index.js';
import { feedbackJsonSchema } from './feedback-json-schema.js';

// Made with the first answer checked, so an import of flowstack does not load Ajv.
let ajv: Ajv2020 | undefined;
const compiled = new Map<string, ValidateFunction>();

export type FeedbackCheck = { ok: true; value: unknown } | { ok: false; problems: string[] };

export function checkFeedback(feedback: FeedbackSchema, value: unknown): FeedbackCheck {
  const key = JSON.stringify(feedback);
  let validate = compiled.get(key);
  if (!validate) {
    try {
      ajv ??= createDraft2020Validator({ allErrors: true, strict: false, validateFormats: false });
      validate = ajv.compile(feedbackJsonSchema(feedback) as object);
    } catch (error) {
      return { ok: false, problems: [`the question's answer schema does not compile: ${String(error)}`] };
    }
    compiled.set(key, validate);
  }
  if (validate(value)) return { ok: true, value };
  const problems = (validate.errors ?? []).map(
    (e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`,
  );
  return { ok: false, problems: [...new Set(problems)] };
}
