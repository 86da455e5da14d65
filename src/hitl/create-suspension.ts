/**
 * Turns a suspended call (a `suspended` tool result) into the question a person answers: the runtime
 * makes its id, picks the answer shape from why it waits, and binds it to the call's idempotency key
 * and argument hash.
 */
import type { FeedbackSchema, SuspensionKind, SuspensionRecord, ToolCallResult } from '../spec/index.js';
import { approvalFeedback, outcomeFeedback, rollbackFeedback } from './decision-feedback.js';
import { type CallWords, type DescribedTool, describeCall, wordsOfTool } from './describe-call.js';

export interface CreateSuspensionOptions {
  id: string;
  flowId: string;
  now: number;
  /** How long the question can be answered; without it, as long as the thread lives. */
  ttlMs?: number;
  /** The call's arguments, redacted. */
  input?: unknown;
  /**
   * The tool the call is for: an approval prompt names the call by the tool's title and its arguments'
   * titles, in its input schema's order (docs/decisions/0088); without it, by the names the call has.
   */
  tool?: DescribedTool;
}

export function createSuspension(
  result: Extract<ToolCallResult, { status: 'suspended' }>,
  options: CreateSuspensionOptions,
): SuspensionRecord {
  const kind = kindOf(result.kind);
  const words = wordsOfTool(result.toolName, options.tool);
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
    prompt: promptOf(kind, result, { words, input: options.input }),
    feedback: feedbackOf(kind, result.feedback),
    createdAt: options.now,
  };
  if (kind === 'approval' && words.title !== undefined)
    record.callWords = {
      title: words.title,
      arguments: words.argumentOrder.map((name) => {
        const title = words.argumentTitles[name];
        return title === undefined ? { name } : { name, title };
      }),
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
  { words, input }: { words: CallWords; input: unknown },
): string {
  if (kind === 'approval') {
    // A tool shown by its name is asked about in the runtime's words; a titled one reads as the action.
    const call = describeCall(words, input);
    return `${words.title === undefined ? `Allow the call to ${call}` : call}? ${result.reason}`;
  }
  if (kind === 'outcome_unknown')
    return `The call to ${result.toolName} started before an interruption and left no result. Did it take effect? Say "it happened", "it did not happen" (it runs again) or "skip".`;
  return result.reason;
}
