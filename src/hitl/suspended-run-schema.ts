/**
 * The saved shape of a suspended run and its questions, checked whenever a snapshot carrying one is
 * read back (a plan's waiting record, the thread's suspended flow runs): a damaged record fails loudly
 * instead of resuming a run from garbage.
 */
import { z } from 'zod';

const feedbackSchema = z.union([
  z.strictObject({ type: z.literal('confirm') }),
  z.strictObject({
    type: z.literal('text'),
    minLength: z.number().optional(),
    maxLength: z.number().optional(),
  }),
  z.strictObject({ type: z.literal('select'), options: z.array(z.string()) }),
  z.strictObject({
    type: z.literal('multiselect'),
    options: z.array(z.string()),
    minItems: z.number().optional(),
    maxItems: z.number().optional(),
  }),
  z.strictObject({
    type: z.literal('number'),
    minimum: z.number().optional(),
    maximum: z.number().optional(),
    integer: z.boolean().optional(),
  }),
  z.strictObject({ type: z.literal('date') }),
  z.strictObject({
    type: z.literal('custom'),
    schema: z.union([z.record(z.string(), z.unknown()), z.boolean()]),
  }),
]);

export const suspensionRecordSchema = z.strictObject({
  specVersion: z.literal(1),
  id: z.string().min(1),
  kind: z.enum(['approval', 'feedback', 'outcome_unknown', 'continue', 'escalation', 'rollback']),
  status: z.enum(['open', 'answered', 'expired']),
  flowId: z.string(),
  callId: z.string().optional(),
  toolName: z.string().optional(),
  idempotencyKey: z.string().optional(),
  argsHash: z.string().optional(),
  input: z.unknown().optional(),
  prompt: z.string(),
  callWords: z
    .strictObject({
      title: z.string(),
      arguments: z.array(z.strictObject({ name: z.string(), title: z.string().optional() })),
    })
    .optional(),
  feedback: feedbackSchema,
  fileSnapshotId: z.string().optional(),
  createdAt: z.number(),
  expiresAt: z.number().optional(),
  answer: z.unknown().optional(),
  answeredAt: z.number().optional(),
  answeredBy: z.string().optional(),
});

export const suspendedRunSchema = z.strictObject({
  specVersion: z.literal(1),
  flowId: z.string(),
  runTurnId: z.string(),
  skill: z.enum(['tool', 'escalate', 'confirm-continue', 'user-stop']),
  reason: z.string(),
  messages: z.array(z.json()),
  state: z.json(),
  suspensions: z.array(suspensionRecordSchema),
  answered: z
    .array(z.strictObject({ toolName: z.string(), argsHash: z.string().optional(), result: z.string() }))
    .optional(),
});
