import { z } from 'zod';

const flowInstanceSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  status: z.enum(['pending', 'active', 'completed', 'invalid']),
  slots: z.record(z.string(), z.unknown()),
  planId: z.string().optional(),
  result: z.unknown().optional(),
  retries: z.number().int().nonnegative(),
});

/**
 * The shape of a `ThreadSnapshot` v1 (`src/spec/thread-snapshot.ts`), checked when a snapshot is encoded
 * and after it is decoded and migrated. Objects are strict: a key this version does not know means the
 * snapshot was written by something else, and saving it back would silently drop that key. Layers that
 * need their own state use `extensions`, which is not checked here.
 */
export const threadSnapshotSchema = z.strictObject({
  schemaVersion: z.literal(1),
  threadId: z.string().min(1),
  principal: z.string().optional(),
  stack: z.array(flowInstanceSchema),
  flags: z.strictObject({
    keepGoing: z.boolean(),
    hasIssues: z.boolean(),
    hasPlan: z.boolean(),
    naturalBirth: z.boolean(),
  }),
  scratchpad: z.array(
    z.strictObject({ key: z.string(), text: z.string(), source: z.string(), time: z.number() }),
  ),
  pending: z
    .strictObject({
      kind: z.literal('slot'),
      flowId: z.string(),
      slot: z.string(),
      question: z.string(),
      level: z.enum(['general', 'partial', 'specific', 'confirmation']),
    })
    .optional(),
  turnCount: z.number().int().nonnegative(),
  historySeq: z.number().int().nonnegative(),
  activeTurnId: z.string().optional(),
  extensions: z.record(z.string(), z.unknown()),
});
