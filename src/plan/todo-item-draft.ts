/**
 * An item as a model (or a caller) proposes it, before the runtime gives it an id and a status. Its
 * `id` is the proposer's own label, used by `dependsOn` within the same proposal; in a plan update it may
 * name an existing item.
 */
import { z } from 'zod';
import type { JsonValue, StepType } from '../spec/index.js';

export interface TodoItemDraft {
  id?: string;
  description: string;
  flow?: string;
  slots?: Record<string, JsonValue>;
  dependsOn?: string[];
  stepType?: StepType;
  requiredTools?: string[];
  expectedOutcome?: string;
}

const jsonValue: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([
    z.string(),
    z.number(),
    z.boolean(),
    z.null(),
    z.array(jsonValue),
    z.record(z.string(), jsonValue),
  ]),
);

/** The draft's schema; models receive it as JSON Schema. Unknown keys are dropped. */
export const todoItemDraftSchema: z.ZodType<TodoItemDraft> = z.object({
  id: z.string().min(1).max(64).optional(),
  description: z.string().min(1).max(2_000),
  flow: z.string().min(1).optional(),
  slots: z.record(z.string(), jsonValue).optional(),
  dependsOn: z.array(z.string()).max(32).optional(),
  stepType: z.enum(['tool', 'reasoning']).optional(),
  requiredTools: z.array(z.string()).max(8).optional(),
  expectedOutcome: z.string().max(2_000).optional(),
});

/** The JSON Schema of a list of drafts, for `responseFormat` and tool input schemas. */
export function todoItemDraftsJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(z.array(todoItemDraftSchema), { target: 'draft-2020-12' }) as Record<string, unknown>;
}
