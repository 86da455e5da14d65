/**
 * The JSON Schema of the answer a question takes, so that every answer — from the API, the web page,
 * the CLI or a chat message — is validated the same way before it is used.
 */
import type { FeedbackSchema, JsonSchema } from '../spec/index.js';

export function feedbackJsonSchema(feedback: FeedbackSchema): JsonSchema {
  switch (feedback.type) {
    case 'confirm':
      return { type: 'boolean' };
    case 'text':
      return {
        type: 'string',
        minLength: feedback.minLength ?? 1,
        ...(feedback.maxLength !== undefined ? { maxLength: feedback.maxLength } : {}),
      };
    case 'select':
      return { type: 'string', enum: [...feedback.options] };
    case 'multiselect':
      return {
        type: 'array',
        items: { type: 'string', enum: [...feedback.options] },
        uniqueItems: true,
        minItems: feedback.minItems ?? 1,
        ...(feedback.maxItems !== undefined ? { maxItems: feedback.maxItems } : {}),
      };
    case 'number':
      return {
        type: feedback.integer ? 'integer' : 'number',
        ...(feedback.minimum !== undefined ? { minimum: feedback.minimum } : {}),
        ...(feedback.maximum !== undefined ? { maximum: feedback.maximum } : {}),
      };
    case 'date':
      return { type: 'string', pattern: '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$' };
    case 'custom':
      return feedback.schema;
  }
}
