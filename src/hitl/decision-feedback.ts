/**
 * The answers of the runtime's own questions, as feedback schemas: an approval (approve, edit the
 * arguments, reject with a reason), an unknown outcome (it happened, it did not, skip it) and a failed
 * file change (roll back, keep, continue).
 */
import type { FeedbackSchema } from '../spec/index.js';

export const approvalFeedback: FeedbackSchema = {
  type: 'custom',
  schema: {
    oneOf: [
      {
        type: 'object',
        properties: { decision: { const: 'approve' } },
        required: ['decision'],
        additionalProperties: false,
      },
      {
        type: 'object',
        properties: { decision: { const: 'edit' }, arguments: { type: 'object' } },
        required: ['decision', 'arguments'],
        additionalProperties: false,
      },
      {
        type: 'object',
        properties: { decision: { const: 'reject' }, reason: { type: 'string', maxLength: 2_000 } },
        required: ['decision'],
        additionalProperties: false,
      },
    ],
  },
};

export const outcomeFeedback: FeedbackSchema = {
  type: 'custom',
  schema: {
    oneOf: [
      {
        type: 'object',
        properties: { decision: { const: 'happened' }, output: {} },
        required: ['decision'],
        additionalProperties: false,
      },
      {
        type: 'object',
        properties: { decision: { enum: ['not-happened', 'skip'] } },
        required: ['decision'],
        additionalProperties: false,
      },
    ],
  },
};

export const rollbackFeedback: FeedbackSchema = {
  type: 'custom',
  schema: {
    type: 'object',
    properties: { decision: { enum: ['rollback', 'keep', 'continue'] }, force: { type: 'boolean' } },
    required: ['decision'],
    additionalProperties: false,
  },
};

/** Go on (`true`) or stop (`false`). */
export const continueFeedback: FeedbackSchema = { type: 'confirm' };

/** What the user says when the skill escalates to them. */
export const escalationFeedback: FeedbackSchema = { type: 'text', maxLength: 8_000 };
