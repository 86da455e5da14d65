/**
 * Records an answer on an open question: a pure transition. The answer is validated against the
 * question's feedback schema; a question already answered, expired or unknown refuses the answer with
 * a `SuspensionError` and nothing changes. A denial is final (DESIGN.md invariant 7): once recorded it
 * is never replaced.
 */
import { SuspensionError } from '../errors/index.js';
import { redactValue } from '../redact/index.js';
import type { SuspensionRecord } from '../spec/index.js';
import { checkFeedback } from './check-feedback.js';

export function answerSuspension(
  record: SuspensionRecord,
  options: { answer: unknown; now: number; principal?: string },
): SuspensionRecord {
  if (record.status === 'answered')
    throw new SuspensionError({
      reason: 'answered',
      suspensionId: record.id,
      message: `Suspension '${record.id}' was answered already.`,
    });
  if (record.status === 'expired' || (record.expiresAt !== undefined && options.now >= record.expiresAt))
    throw new SuspensionError({
      reason: 'expired',
      suspensionId: record.id,
      message: `Suspension '${record.id}' expired; the call it held was not run.`,
    });
  const checked = checkFeedback(record.feedback, options.answer);
  if (!checked.ok)
    throw new SuspensionError({
      reason: 'invalid_feedback',
      suspensionId: record.id,
      message: `The answer does not fit suspension '${record.id}' (${record.kind}): ${checked.problems.join('; ')}.`,
      problems: checked.problems,
    });
  return {
    ...record,
    status: 'answered',
    // A blocking tool's answer is its result, which the model reads redacted anyway: it is saved redacted
    // (DESIGN.md invariant 8). Other answers (approval decisions, edited arguments) are kept as given.
    answer: record.kind === 'feedback' ? redactValue(checked.value) : checked.value,
    answeredAt: options.now,
    ...(options.principal !== undefined ? { answeredBy: options.principal } : {}),
  };
}

/** Open questions past their time become `expired`; an expired approval counts as refused. */
export function expireSuspensions(records: readonly SuspensionRecord[], now: number): SuspensionRecord[] {
  return records.map((r) =>
    r.status === 'open' && r.expiresAt !== undefined && now >= r.expiresAt ? { ...r, status: 'expired' } : r,
  );
}
