/**
 * The settlement of a `rollback` question (seed 004): a call failed after changing the files it declared,
 * and a person chose what to do with them. The call's result stays its error; this does the choice and
 * says in a sentence what happened, for the model.
 */
import { rollbackFileSnapshot } from '../../consistency/index.js';
import { FileSnapshotError } from '../../errors/index.js';
import type { RollbackDecision, SuspensionRecord, ToolCallResult, ToolError } from '../../spec/index.js';
import type { ToolBatchContext } from '../../tool/index.js';

/** Settles one `rollback` question: its result (the call's error), a note for the model, and whether to stop. */
export async function settleFileQuestion(
  batch: Pick<ToolBatchContext, 'store' | 'files' | 'clock' | 'threadId' | 'redact'>,
  question: SuspensionRecord,
): Promise<{ decision: RollbackDecision['decision']; result: ToolCallResult; note: string; stop?: string }> {
  const decision: RollbackDecision =
    question.status === 'answered' ? (question.answer as RollbackDecision) : { decision: 'keep' };
  const { failure, outcome } = await decide(batch, question, decision);
  const toolName = question.toolName as string;
  return {
    decision: decision.decision,
    result: {
      status: 'error',
      callId: question.callId as string,
      toolName,
      error: failure,
      contextText: `Error (${failure.category}) from tool '${toolName}': ${failure.message} ${outcome}`,
    },
    note: `The call to ${toolName} failed. ${outcome}`,
    ...(decision.decision === 'keep' ? { stop: outcome } : {}),
  };
}

/**
 * Does what a person chose for the files a failed call changed: rolls them back (idempotent, resumable
 * after a crash), or records that they are kept. A rollback that cannot run (an unreadable snapshot, a
 * path now outside the root) changes nothing, and says so.
 */
async function decide(
  batch: Pick<ToolBatchContext, 'store' | 'files' | 'clock' | 'threadId' | 'redact'>,
  question: SuspensionRecord,
  decision: RollbackDecision,
): Promise<{ failure: ToolError; outcome: string }> {
  const { store, files, clock, threadId, redact } = batch;
  const key = question.idempotencyKey;
  const held = key && store ? await store.readJournal(key) : undefined;
  const failure = failureOf(held?.result) ?? {
    category: 'server_error',
    message: 'The call failed.',
    retryable: false,
  };
  const snapshotId = question.fileSnapshotId;
  if (!files || !snapshotId)
    return { failure, outcome: 'Its files could not be rolled back: no file snapshot is kept for it.' };
  if (decision.decision !== 'rollback') {
    // A note for people; a snapshot that can no longer take it changes nothing about the decision.
    await files.store
      .append(threadId, snapshotId, { type: 'status', status: 'kept', at: clock.now() })
      .catch(() => undefined);
    return {
      failure,
      outcome:
        decision.decision === 'keep'
          ? 'The user kept the files as the call left them and stopped this task.'
          : 'The user kept the files as the call left them; go on from there.',
    };
  }
  try {
    const report = await rollbackFileSnapshot({
      service: files,
      threadId,
      snapshotId,
      now: () => clock.now(),
      ...(question.answeredBy !== undefined ? { principal: question.answeredBy } : {}),
      ...(decision.force === true ? { force: true } : {}),
    });
    const restored = report.restored.length > 0 ? ` restored ${report.restored.join(', ')}` : '';
    const removed = report.removed.length > 0 ? ` removed ${report.removed.join(', ')}` : '';
    return {
      failure,
      outcome: redact.text(
        `The user rolled the files back to before the call:${restored}${restored && removed ? ';' : ''}${removed}.`,
      ),
    };
  } catch (error) {
    if (!FileSnapshotError.isInstance(error)) throw error;
    return {
      failure,
      outcome: redact.text(`Rolling the files back failed and nothing was changed: ${error.message}`),
    };
  }
}

function failureOf(journaled: string | undefined): ToolError | undefined {
  if (journaled === undefined) return undefined;
  try {
    const held = JSON.parse(journaled) as { failure?: ToolError; error?: ToolError };
    return held.failure ?? held.error;
  } catch {
    return undefined;
  }
}
