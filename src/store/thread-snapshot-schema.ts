import { z } from 'zod';

const flowStatusSchema = z.enum(['pending', 'active', 'completed', 'invalid']);

const flowInstanceSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  status: flowStatusSchema,
  slots: z.record(z.string(), z.unknown()),
  planId: z.string().optional(),
  result: z.unknown().optional(),
  retries: z.number().int().nonnegative(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  recovery: z.array(z.enum(['retry', 'gather-context', 'contemplate', 'escalate'])).optional(),
  dependsOn: z.array(z.string()).optional(),
  returnTo: z.string().optional(),
  confirmed: z.string().optional(),
});

const flagsSchema = z.strictObject({
  keepGoing: z.boolean(),
  hasIssues: z.boolean(),
  hasPlan: z.boolean(),
  naturalBirth: z.boolean(),
});

const dialogueChangeSchema = z.discriminatedUnion('op', [
  z.strictObject({
    op: z.literal('push'),
    flowId: z.string(),
    name: z.string(),
    planId: z.string().optional(),
  }),
  z.strictObject({ op: z.literal('pop'), flowId: z.string(), name: z.string(), status: flowStatusSchema }),
  z.strictObject({
    op: z.literal('status'),
    flowId: z.string(),
    name: z.string(),
    from: flowStatusSchema,
    to: flowStatusSchema,
  }),
  z.strictObject({
    op: z.literal('slots'),
    flowId: z.string(),
    name: z.string(),
    set: z.record(z.string(), z.unknown()),
    cleared: z.array(z.string()),
  }),
  z.strictObject({ op: z.literal('flags'), set: flagsSchema.partial() }),
  z.strictObject({
    op: z.literal('schedule'),
    flowId: z.string(),
    name: z.string(),
    dependsOn: z.array(z.string()),
  }),
  z.strictObject({
    op: z.literal('background'),
    flowId: z.string(),
    name: z.string(),
    status: flowStatusSchema,
  }),
]);

/**
 * The shape of a `ThreadSnapshot` v1 (`src/spec/thread-snapshot.ts`), checked when a snapshot is encoded
 * and after it is decoded and migrated. Objects are strict: a key this version does not know means the
 * snapshot was written by something else, and saving it back would silently drop that key. Layers that
 * need their own state use `extensions`, which is not checked here. The fields added by the flows issue
 * (`preferences`, `background`, `diffs`, and the optional flow fields) are optional, so every snapshot
 * written before them still reads.
 */
export const threadSnapshotSchema = z.strictObject({
  schemaVersion: z.literal(1),
  threadId: z.string().min(1),
  principal: z.string().optional(),
  stack: z.array(flowInstanceSchema),
  flags: flagsSchema,
  scratchpad: z.array(
    z.strictObject({ key: z.string(), text: z.string(), source: z.string(), time: z.number() }),
  ),
  pending: z
    .strictObject({
      kind: z.enum(['slot', 'confirmation', 'clarification']),
      flowId: z.string(),
      slot: z.string().optional(),
      question: z.string(),
      level: z.enum(['general', 'partial', 'specific', 'confirmation']),
      options: z.array(z.string()).optional(),
    })
    .optional(),
  turnCount: z.number().int().nonnegative(),
  historySeq: z.number().int().nonnegative(),
  activeTurnId: z.string().optional(),
  preferences: z.record(z.string(), z.unknown()).optional(),
  background: z.array(flowInstanceSchema).optional(),
  diffs: z
    .array(
      z.strictObject({ turn: z.number().int(), turnId: z.string(), changes: z.array(dialogueChangeSchema) }),
    )
    .optional(),
  taint: z
    .array(
      z.strictObject({
        tool: z.string(),
        callId: z.string(),
        turnId: z.string(),
        notes: z.array(z.string()).optional(),
        flows: z.array(z.string()).optional(),
      }),
    )
    .optional(),
  extensions: z.record(z.string(), z.unknown()),
});
