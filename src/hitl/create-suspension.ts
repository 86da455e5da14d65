/**
 * Turns a suspended call (a `suspended` tool result) into the question a person answers: the runtime
 * makes its id, picks the answer shape from why it waits, and binds it to the call's idempotency key
 * and argument hash.
 */
import type { FeedbackSchema, SuspensionKind, SuspensionRecord, ToolCallResult } from '../spec/index.js';
import { approvalFeedback, outcomeFeedback, rollbackFeedback } from './decision-feedback.js';

export interface CreateSuspensionOptions {
  id: string;
  flowId: string;
  now: number;
  /** How long the question can be answered; without it, as long as the thread lives. */
  ttlMs?: number;
  /** The call's arguments, redacted. */
  input?: unknown;
  /** The tool's argument names in its input schema's order: the order the approval prompt shows them in. */
  argumentOrder?: readonly string[];
}

export function createSuspension(
  result: Extract<ToolCallResult, { status: 'suspended' }>,
  options: CreateSuspensionOptions,
): SuspensionRecord {
  const kind = kindOf(result.kind);
  const record: SuspensionRecord = {
    specVersion: 1,
    id: options.id,
    kind,
    status: 'open',
    flowId: options.flowId,
    callId: result.callId,
    toolName: result.toolName,
    idempotencyKey: result.idempotencyKey,
    argsHash: result.argsHash,
    prompt: promptOf(kind, result, options),
    feedback: feedbackOf(kind, result.feedback),
    createdAt: options.now,
  };
  if (options.input !== undefined) record.input = options.input;
  if (kind === 'rollback' && result.fileSnapshotId !== undefined)
    record.fileSnapshotId = result.fileSnapshotId;
  if (options.ttlMs !== undefined && kind === 'approval') record.expiresAt = options.now + options.ttlMs;
  return record;
}

function kindOf(kind: string): SuspensionKind {
  return kind === 'approval' || kind === 'outcome_unknown' || kind === 'rollback' ? kind : 'feedback';
}

function feedbackOf(kind: SuspensionKind, own: FeedbackSchema | undefined): FeedbackSchema {
  if (kind === 'approval') return approvalFeedback;
  if (kind === 'outcome_unknown') return outcomeFeedback;
  if (kind === 'rollback') return rollbackFeedback;
  return own ?? { type: 'text' };
}

function promptOf(
  kind: SuspensionKind,
  result: { toolName: string; reason: string },
  options: CreateSuspensionOptions,
): string {
  if (kind === 'approval')
    return `Allow the call to ${result.toolName}${describeArguments(options.input, options.argumentOrder)}? ${result.reason}`;
  if (kind === 'outcome_unknown')
    return `The call to ${result.toolName} started before an interruption and left no result. Did it take effect? Say "it happened", "it did not happen" (it runs again) or "skip".`;
  return result.reason;
}

/**
 * The (redacted) arguments in a line a person can read before deciding: ` (to: "ana", amount: 10, memo:
 * "Rent for…the flat")`. Every argument is shown — in the order of the tool's input schema, so the model
 * cannot push `amount` or `to` out of sight behind a long `memo` — and only long values are shortened, in
 * the middle, keeping how they begin and end.
 */
export function describeArguments(input: unknown, order: readonly string[] = []): string {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return '';
  const values = input as Record<string, unknown>;
  const names = Object.keys(values);
  const ordered = [
    ...order.filter((name) => Object.hasOwn(values, name)),
    ...names.filter((n) => !order.includes(n)),
  ];
  if (ordered.length === 0) return '';
  const parts = ordered.map((name) => `${name}: ${abbreviate(JSON.stringify(values[name]) ?? 'null')}`);
  return ` (${parts.join(', ')})`;
}

/** A value longer than this is shown by its beginning and its end. */
const maxValueChars = 80;

function abbreviate(text: string): string {
  if (text.length <= maxValueChars) return text;
  const half = Math.floor((maxValueChars - 1) / 2);
  return `${text.slice(0, half)}…${text.slice(text.length - half)}`;
}
