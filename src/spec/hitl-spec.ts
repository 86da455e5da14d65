/**
 * Human-in-the-loop contracts, version 1 (seed 002 HITL V2; DESIGN.md invariants 6 and 7): what a
 * suspended call asks, what answer it takes, and how both are kept in the thread's snapshot so they
 * survive restarts. Data only.
 */
import type { JsonSchema, JsonValue } from './json-schema.js';

/** Why a skill run waits: `tool` and `escalate` name the call concerned; the others concern the run. */
export type SkillSuspensionKind = 'tool' | 'escalate' | 'confirm-continue' | 'user-stop';

/**
 * The answer a question takes. `confirm` is a yes or no (`true` / `false`), `text` a string, `select` one
 * of `options`, `multiselect` several, `number` a number within bounds, `date` an ISO date
 * (`YYYY-MM-DD`), `custom` any JSON value valid against `schema`.
 */
export type FeedbackSchema =
  | { type: 'confirm' }
  | { type: 'text'; minLength?: number; maxLength?: number }
  | { type: 'select'; options: string[] }
  | { type: 'multiselect'; options: string[]; minItems?: number; maxItems?: number }
  | { type: 'number'; minimum?: number; maximum?: number; integer?: boolean }
  | { type: 'date' }
  | { type: 'custom'; schema: JsonSchema };

/** A tool that always waits for a person: the person's answer is its result (seed 002 blocking tools). */
export interface BlockingToolSpec {
  feedback: FeedbackSchema;
  /** The question, with `{{field}}` placeholders filled from the call's arguments. */
  prompt?: string;
}

/**
 * Why a run waits: `approval` (a call needs a yes), `feedback` (a blocking tool asks the user),
 * `outcome_unknown` (a call started before a crash and left no result), `continue` (a long task asks
 * whether to go on, or the user stopped it), `escalation` (the skill cannot go on without the user),
 * `rollback` (a call that changed files failed: roll back, keep, or continue).
 */
export type SuspensionKind =
  | 'approval'
  | 'feedback'
  | 'outcome_unknown'
  | 'continue'
  | 'escalation'
  | 'rollback';

/**
 * The answer of an `approval`: run the call as it is, run it with edited arguments (validated against
 * the tool's input schema; the approval binds to them), or refuse it for good.
 */
export type ApprovalDecision =
  | { decision: 'approve' }
  | { decision: 'edit'; arguments: Record<string, unknown> }
  | { decision: 'reject'; reason?: string };

/**
 * The answer of an `outcome_unknown`: the effect happened (optionally with what it returned), it did not
 * (run the call again, under the same idempotency key), or leave it out.
 */
export type OutcomeDecision =
  | { decision: 'happened'; output?: unknown }
  | { decision: 'not-happened' }
  | { decision: 'skip' };

/**
 * The answer of a `rollback` question (seed 004): restore the files, keep them, or keep them and go on.
 * `force` restores them even over changes made after the call (else such a rollback changes nothing).
 */
export type RollbackDecision =
  | { decision: 'rollback'; force?: boolean }
  | { decision: 'keep' }
  | { decision: 'continue' };

export type SuspensionStatus = 'open' | 'answered' | 'expired';

/** One open question of a thread, as saved and as the API shows it. */
export interface SuspensionRecordV1 {
  readonly specVersion: 1;
  /** Made by the runtime; what `agent.resume({ suspensionId })` answers. */
  id: string;
  kind: SuspensionKind;
  status: SuspensionStatus;
  /** The flow (or plan item) whose run waits. */
  flowId: string;
  callId?: string;
  toolName?: string;
  /** The waiting call's idempotency key: an approval or answer binds to it. */
  idempotencyKey?: string;
  /** Hash of the call's exact arguments (an approval binds to it too). */
  argsHash?: string;
  /** The call's arguments, redacted, for the person deciding. */
  input?: unknown;
  /** The question in words. */
  prompt: string;
  /**
   * An approval's call in the tool's own words, for a page that lays the question out: the tool's title
   * and its arguments in the input schema's order, each with its title when it has one. Absent for a
   * tool shown by its names, one whose words are not trusted (docs/decisions/0088).
   */
  callWords?: SuspensionCallWords;
  /** The answer it takes (for `approval`, `outcome_unknown` and `rollback`, their decision shapes). */
  feedback: FeedbackSchema;
  /** A file snapshot the `rollback` question is about. */
  fileSnapshotId?: string;
  createdAt: number;
  /** After this time the question cannot be answered: an approval counts as refused. */
  expiresAt?: number;
  /** The validated answer, once given. */
  answer?: unknown;
  answeredAt?: number;
  /** Who answered. */
  answeredBy?: string;
}

export type SuspensionRecord = SuspensionRecordV1;

/** See `SuspensionRecordV1.callWords`. */
export interface SuspensionCallWords {
  title: string;
  arguments: { name: string; title?: string }[];
}

/**
 * A skill run that waits for people: its checkpoint (messages and loop state, to go on from exactly
 * there) and every question its last step asked. It goes on once all are answered. Kept in the thread's
 * snapshot (`extensions.hitl.runs` for flows; a plan item keeps it in the plan's waiting record).
 */
export interface SuspendedRunV1 {
  readonly specVersion: 1;
  /** The flow instance (or plan item) whose run waits. */
  flowId: string;
  /** The turn whose id keys the run's tool calls (ADR 0003): a resume goes on under it. */
  runTurnId: string;
  /** Why the skill loop stopped. */
  skill: SkillSuspensionKind;
  reason: string;
  messages: JsonValue[];
  state: JsonValue;
  suspensions: SuspensionRecord[];
  /**
   * Calls people settled earlier in this run: a repeat of one (same tool, same arguments — or, for a
   * blocking tool, any arguments) is answered with its result, never run or asked again.
   */
  answered?: AnsweredCall[];
}

export type SuspendedRun = SuspendedRunV1;

/** One settled call of a run: its result, as JSON text of a `ToolCallResult`. */
export interface AnsweredCall {
  toolName: string;
  /** Absent for blocking tools, whose answer stands for every call of the run. */
  argsHash?: string;
  result: string;
}
