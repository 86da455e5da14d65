/**
 * The plan's place in the thread snapshot: `extensions.plan`. Reading checks its shape, so a corrupt or
 * foreign value fails loudly with a `SnapshotError` instead of running a half-understood plan.
 */
import { z } from 'zod';
import { SnapshotError } from '../errors/index.js';
import { suspendedRunSchema } from '../hitl/index.js';
import type { PlanState, ThreadSnapshot } from '../spec/index.js';

const todoItemSchema = z.strictObject({
  id: z.string(),
  description: z.string(),
  flow: z.string().optional(),
  slots: z.record(z.string(), z.json()).optional(),
  dependsOn: z.array(z.string()),
  stepType: z.enum(['tool', 'reasoning']),
  requiredTools: z.array(z.string()),
  expectedOutcome: z.string().optional(),
  status: z.enum(['pending', 'in_progress', 'completed', 'failed', 'cancelled', 'waiting']),
  summary: z.string().optional(),
  runTurnId: z.string().optional(),
  attempts: z.number().int().nonnegative(),
  replaces: z.string().optional(),
});

const waitingSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('slot'), itemId: z.string() }),
  z.strictObject({
    kind: z.literal('question'),
    itemId: z.string(),
    question: z.string(),
    feedback: z.string().optional(),
  }),
  z.strictObject({ kind: z.literal('skill'), itemId: z.string(), run: suspendedRunSchema }),
]);

/** The shape of `extensions.plan`. */
export const planStateSchema = z.strictObject({
  specVersion: z.literal(1),
  id: z.string(),
  objective: z.string(),
  title: z.string(),
  status: z.enum(['active', 'completed', 'abandoned']),
  items: z.array(todoItemSchema),
  revision: z.number().int().nonnegative(),
  rounds: z.number().int().nonnegative(),
  failurePolicy: z.enum(['stop-and-synthesize', 'skip-and-continue', 're-route']),
  startSeq: z.number().int().nonnegative(),
  waiting: waitingSchema.optional(),
  synthesis: z
    .strictObject({
      content: z.string(),
      sources: z.array(z.string()),
      suggestedQuestions: z.array(z.string()),
    })
    .optional(),
});

/** The thread's plan (the current or the last one), or `undefined` when it has none. */
export function readPlanState(snapshot: ThreadSnapshot): PlanState | undefined {
  const value = snapshot.extensions.plan;
  if (value === undefined) return undefined;
  const parsed = planStateSchema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .map((i) => `- ${i.path.join('.') || '(plan)'}: ${i.message}`)
      .join('\n');
    throw new SnapshotError({
      threadId: snapshot.threadId,
      reason: 'invalid_shape',
      message: `The plan saved in thread '${snapshot.threadId}' is not a valid plan. The stored row is left untouched.\n${issues}`,
    });
  }
  return parsed.data as PlanState;
}

/** The snapshot with `plan` as its plan. */
export function writePlanState(snapshot: ThreadSnapshot, plan: PlanState): ThreadSnapshot {
  return { ...snapshot, extensions: { ...snapshot.extensions, plan } };
}

/** The active plan owned by the Plan flow `planId`, if the snapshot holds it. */
export function readActivePlan(snapshot: ThreadSnapshot, planId?: string): PlanState | undefined {
  const plan = readPlanState(snapshot);
  if (plan?.status !== 'active') return undefined;
  return planId === undefined || plan.id === planId ? plan : undefined;
}
