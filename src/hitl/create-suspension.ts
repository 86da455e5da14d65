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
    prompt: promptOf(kind, result, options.input),
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
  input: unknown,
): string {
  if (kind === 'approval')
    return `Allow the call to ${result.toolName}${describeArguments(input)}? ${result.reason}`;
  if (kind === 'outcome_unknown')
    return `The call to ${result.toolName} started before an interruption and left no result. Did it take effect?`;
  return result.reason;
}

/** The (redacted) arguments in a line a person can read before deciding: ` (flight_id: "TP1351", …)`. */
function describeArguments(input: unknown): string {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return '';
  const parts = Object.entries(input).map(([name, value]) => `${name}: ${JSON.stringify(value) ?? 'null'}`);
  if (parts.length === 0) return '';
  const text = parts.join(', ');
  return ` (${text.length > maxArgumentsChars ? `${text.slice(0, maxArgumentsChars)}…` : text})`;
}

const maxArgumentsChars = 200;
