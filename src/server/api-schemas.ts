/**
 * The HTTP API's request and response bodies as Zod schemas: requests are validated with them, and the
 * OpenAPI document is generated from them, so the document cannot drift from what the server accepts.
 */
import { z } from 'zod';

export const sendTurnBody = z
  .object({ text: z.string().describe('The user message. Empty or too long messages are refused with 400.') })
  .strict();

/** One UI message as the AI SDK's `useChat` sends it; only text parts and answered tool approvals are read. */
const uiMessage = z
  .object({
    id: z.string().optional(),
    role: z.enum(['system', 'user', 'assistant']),
    parts: z.array(z.looseObject({ type: z.string() })),
  })
  .loose();

export const chatBody = z
  .looseObject({
    id: z.string().describe('The chat id, which is the thread id.'),
    messages: z
      .array(uiMessage)
      .min(1)
      .describe(
        'The chat so far. The last message is read: a user message’s text parts are the next message; an assistant message’s tool parts in state approval-responded answer the approvals it asked for.',
      ),
  })
  .describe('The body `useChat` (AI SDK 5 and 6) sends through its default transport.');

export const approvalFeedback = z.discriminatedUnion('decision', [
  z.object({ decision: z.literal('approve') }).strict(),
  z.object({ decision: z.literal('reject'), reason: z.string().min(1).max(2_000).optional() }).strict(),
  z
    .object({
      decision: z.literal('edit'),
      arguments: z
        .record(z.string(), z.unknown())
        .describe('Replacement arguments, validated against the tool input schema.'),
    })
    .strict(),
]);

const approvalDecisions = new Set<unknown>(['approve', 'reject', 'edit']);

export const resumeBody = z
  .object({
    feedback: z
      .unknown()
      .describe(
        'The answer to the suspension, checked against the question’s own feedback schema (422 when it does not fit). An approval is { decision: "approve" }, { decision: "reject", reason? } or { decision: "edit", arguments }; an unknown outcome { decision: "happened", output? }, { decision: "not-happened" } or { decision: "skip" }; a failed file change { decision: "rollback", force? }, { decision: "keep" } or { decision: "continue" }; a tool’s own question the value its schema asks for.',
      ),
  })
  .strict()
  .superRefine((body, context) => {
    if (body.feedback === undefined) {
      context.addIssue({ code: 'custom', message: 'feedback is required', path: ['feedback'] });
      return;
    }
    // Feedback that claims to be an approval decision must be a well-formed one. The other decisions
    // (unknown outcomes, file changes) are checked by the agent against their question's schema.
    if (
      typeof body.feedback === 'object' &&
      body.feedback !== null &&
      approvalDecisions.has((body.feedback as { decision?: unknown }).decision)
    ) {
      const parsed = approvalFeedback.safeParse(body.feedback);
      for (const issue of parsed.error?.issues ?? [])
        context.addIssue({ code: 'custom', message: issue.message, path: ['feedback', ...issue.path] });
    }
  });

export const rollbackBody = z
  .object({
    snapshotId: z
      .string()
      .min(1)
      .optional()
      .describe('The file snapshot to restore (one of the thread’s fileSnapshots).'),
    callId: z.string().min(1).optional().describe('Or the tool call whose snapshot to restore.'),
    force: z
      .boolean()
      .optional()
      .describe(
        'Roll back even over changes made to the files after the call (else 409 file_snapshot_conflict).',
      ),
  })
  .strict()
  .refine((body) => body.snapshotId !== undefined || body.callId !== undefined, {
    message: 'Name the snapshot to roll back: snapshotId or callId.',
  });

const observation = z.object({
  specVersion: z.literal(1),
  id: z.number().int().describe('Store id and SSE event id; 0 for live progress, which is never stored.'),
  threadId: z.string(),
  turnId: z.string(),
  type: z.string(),
  parentId: z.string().optional().describe('The flow or plan item that produced it.'),
  time: z.number(),
  data: z.record(z.string(), z.unknown()),
});

const flowInstance = z
  .object({ id: z.string(), name: z.string(), status: z.string(), slots: z.record(z.string(), z.unknown()) })
  .passthrough();

export const pendingQuestionSchema = z
  .object({
    kind: z.enum(['slot', 'confirmation', 'clarification']),
    flowId: z.string(),
    slot: z.string().optional().describe('The slot the answer fills (kind slot).'),
    question: z.string(),
    level: z.string(),
    options: z.array(z.string()).optional().describe('The values offered, when the slot has a fixed set.'),
  })
  .passthrough()
  .describe('The question the next message answers.');

/** An approval's call in the tool's own words (docs/decisions/0088). */
const callWordsSchema = z
  .object({
    title: z.string(),
    arguments: z.array(z.object({ name: z.string(), title: z.string().optional() })),
  })
  .optional()
  .describe(
    'An approval’s call in the tool’s own words: its title, and its arguments in schema order with their titles.',
  );

/** A question for people as a turn's result lists it (answer it at /suspensions/{id}). */
export const turnSuspensionSchema = z
  .object({
    id: z.string().describe('What /suspensions/{suspensionId} answers.'),
    kind: z.string().describe('approval, feedback, outcome_unknown or rollback.'),
    status: z.string().describe('open, answered or expired.'),
    flowId: z.string(),
    callId: z.string().optional(),
    toolName: z.string().optional(),
    idempotencyKey: z.string().optional(),
    argsHash: z.string().optional(),
    input: z.unknown().optional().describe('The call’s arguments, redacted.'),
    prompt: z.string(),
    callWords: callWordsSchema,
    feedback: z.unknown().describe('The schema of the answer it takes.'),
    createdAt: z.number(),
    expiresAt: z.number().optional(),
  })
  .passthrough();

export const fileSnapshotSchema = z.object({
  id: z.string().describe('What /rollback restores (snapshotId).'),
  callId: z.string(),
  toolName: z.string(),
  status: z
    .string()
    .describe(
      'taken, committed, failed, kept, rolling-back, rolled-back, or corrupt (cannot be rolled back).',
    ),
  paths: z.array(z.string()).describe('The files the call declared, relative to the agent’s file root.'),
  createdAt: z.number(),
});

const tokenUsageSchema = z.object({
  inputTokens: z.number().int().describe('Input tokens, cached ones included.'),
  outputTokens: z.number().int(),
  cacheReadTokens: z.number().int().describe("Input tokens served from the provider's prompt cache."),
  cacheWriteTokens: z.number().int().describe("Input tokens written to the provider's prompt cache."),
  reasoningTokens: z.number().int(),
  modelCalls: z.number().int(),
  cost: z
    .number()
    .optional()
    .describe("In the price table's currency, when every model counted has a price."),
});

export const turnResultSchema = z.object({
  threadId: z.string(),
  turnId: z.string(),
  status: z.enum(['completed', 'needs-input', 'suspended', 'failed']),
  reply: z.string(),
  frames: z.array(z.record(z.string(), z.unknown())),
  stack: z.array(flowInstance),
  pending: pendingQuestionSchema.optional(),
  observations: z.array(observation),
  suspensions: z
    .array(turnSuspensionSchema)
    .optional()
    .describe('The questions the thread waits for (an approval, an unknown outcome …), when there are any.'),
  fileSnapshots: z
    .array(fileSnapshotSchema)
    .optional()
    .describe('After a failed or stopped turn: snapshots of calls that did not succeed, to roll back.'),
  usage: tokenUsageSchema
    .extend({ byModel: z.record(z.string(), tokenUsageSchema) })
    .optional()
    .describe("What the turn's model calls used, in total and per model id."),
});

export const acceptedSchema = z.object({
  threadId: z.string(),
  afterId: z
    .number()
    .int()
    .describe('Stream events with Last-Event-ID set to this to receive the whole turn.'),
  events: z.string().describe('The event stream of the thread.'),
  thread: z.string(),
});

export const threadSummarySchema = z.object({
  threadId: z.string(),
  title: z.string().optional().describe('The first message, shortened, once the thread has one.'),
  version: z.number(),
  createdAt: z.number(),
  updatedAt: z.number(),
});

export const suspensionSchema = z.object({
  suspensionId: z.string().optional().describe('What /suspensions/{suspensionId} answers.'),
  kind: z.string().optional().describe('approval, feedback, outcome_unknown or rollback.'),
  callId: z.string(),
  toolName: z.string(),
  prompt: z.string(),
  input: z.unknown().optional().describe('The call’s arguments, redacted.'),
  callWords: callWordsSchema,
  feedback: z.unknown().optional().describe('The feedback schema of the answer it takes.'),
  expiresAt: z.number().optional(),
});

export const rollbackReportSchema = z.object({
  threadId: z.string(),
  result: z.object({
    snapshotId: z.string(),
    threadId: z.string(),
    callId: z.string(),
    toolName: z.string(),
    status: z.literal('rolled-back'),
    restored: z.array(z.string()).describe('Files written back with their old bytes and mode.'),
    removed: z.array(z.string()).describe('Files the call created, removed.'),
  }),
});

export const threadViewSchema = z.object({
  threadId: z.string(),
  version: z.number(),
  running: z.boolean().describe('A turn started through this server is under way.'),
  stack: z.array(flowInstance),
  pending: pendingQuestionSchema.optional(),
  suspensions: z
    .array(suspensionSchema)
    .describe('The open questions the thread waits for; answer one at /suspensions/{suspensionId}.'),
  messages: z.array(
    z.object({ seq: z.number(), role: z.enum(['user', 'assistant']), text: z.string(), turnId: z.string() }),
  ),
  lastEventId: z.number(),
  capabilities: z.object({ resume: z.boolean(), rollback: z.boolean() }),
  fileSnapshots: z.array(fileSnapshotSchema).optional(),
});

export const auditRecordSchema = z
  .object({
    id: z.number(),
    threadId: z.string(),
    callId: z.string(),
    toolName: z.string(),
    capability: z.string(),
    status: z
      .enum(['started', 'succeeded', 'failed', 'denied', 'suspended', 'replayed', 'interrupted'])
      .describe(
        'One row per call: succeeded/failed when the tool ran; replayed when the call was answered without running (journal, an earlier approval in the run, cache, a person); denied; suspended (waits for a person); started while it runs; interrupted when the process died during it (settled on replay).',
      ),
    inputSummary: z.string(),
    outputSummary: z.string().optional(),
    durationMs: z.number().optional(),
    createdAt: z.number(),
  })
  .passthrough();

export const problemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number(),
    detail: z.string().optional(),
    code: z.string(),
  })
  .passthrough();

export { observation as observationSchema };
