/**
 * A thread's questions for people, wherever their runs are kept: a flow's suspended run
 * (`extensions.hitl`) or a plan item's (the plan's waiting record). Lists them and records an answer
 * to one (DESIGN.md invariant 7: bound to its call, validated, expiring, final once refused).
 */
import { SuspensionError } from '../../errors/index.js';
import { readPlanState, writePlanState } from '../../plan/index.js';
import type { ApprovalDecision, SuspendedRun, SuspensionRecord, ThreadSnapshot } from '../../spec/index.js';
import { compileSchema, type ToolSet } from '../../tool/index.js';
import { answerSuspension, findSettledSuspension, readSuspendedRuns, writeSuspendedRun } from '../index.js';

/** Every question of the thread's waiting runs (open, answered or expired). */
export function listSuspensions(snapshot: ThreadSnapshot): SuspensionRecord[] {
  return runsOf(snapshot).flatMap((run) => run.suspensions);
}

/** The questions still waiting for an answer. */
export function openSuspensions(snapshot: ThreadSnapshot): SuspensionRecord[] {
  return listSuspensions(snapshot).filter((s) => s.status === 'open');
}

export interface RecordAnswerOptions {
  suspensionId: string;
  answer: unknown;
  now: number;
  principal?: string;
  /** To check arguments edited in an approval against the tool's input schema. */
  tools: ToolSet;
}

/**
 * Records the answer in the snapshot (changed in place) and returns the answered question. An unknown
 * id, a question answered already or expired, or an answer that does not fit throws `SuspensionError`
 * and changes nothing.
 */
export function recordAnswer(snapshot: ThreadSnapshot, options: RecordAnswerOptions): SuspensionRecord {
  const run = runsOf(snapshot).find((r) => r.suspensions.some((s) => s.id === options.suspensionId));
  const question = run?.suspensions.find((s) => s.id === options.suspensionId);
  if (!run || !question) {
    if (findSettledSuspension(snapshot, options.suspensionId))
      throw new SuspensionError({
        reason: 'answered',
        suspensionId: options.suspensionId,
        message: `Suspension '${options.suspensionId}' was answered already and its run went on.`,
      });
    throw new SuspensionError({
      reason: 'not_found',
      suspensionId: options.suspensionId,
      message: `Thread '${snapshot.threadId}' has no question '${options.suspensionId}'.`,
    });
  }
  const answered = answerSuspension(question, {
    answer: options.answer,
    now: options.now,
    ...(options.principal !== undefined ? { principal: options.principal } : {}),
  });
  checkEditedArguments(answered, options.tools);
  writeRun(snapshot, {
    ...run,
    suspensions: run.suspensions.map((s) => (s.id === answered.id ? answered : s)),
  });
  return answered;
}

/** Says in a sentence what was answered, for the conversation's history. */
export function describeAnswer(question: SuspensionRecord): string {
  const answer = question.answer as Record<string, unknown> | unknown;
  const decision =
    typeof answer === 'object' && answer !== null ? (answer as { decision?: unknown }).decision : undefined;
  const about = question.toolName ? ` ${question.toolName}` : '';
  if (question.kind === 'approval') {
    const reason = (answer as { reason?: string }).reason;
    if (decision === 'approve') return `Approved${about}.`;
    if (decision === 'edit') return `Approved${about} with edited arguments.`;
    return `Refused${about}${reason ? `: ${reason}` : ''}.`;
  }
  if (question.kind === 'outcome_unknown')
    return decision === 'happened'
      ? `Confirmed${about} took effect.`
      : decision === 'not-happened'
        ? `Said${about} did not take effect.`
        : `Left out${about}.`;
  if (question.kind === 'rollback') return `Chose to ${String(decision)} the files${about} changed.`;
  if (question.kind === 'continue') return answer === true ? 'Go on.' : 'Stop.';
  return typeof answer === 'string' ? answer : JSON.stringify(answer);
}

function runsOf(snapshot: ThreadSnapshot): SuspendedRun[] {
  const plan = readPlanState(snapshot);
  const planRun = plan?.waiting?.kind === 'skill' ? [plan.waiting.run] : [];
  return [...readSuspendedRuns(snapshot), ...planRun];
}

function writeRun(snapshot: ThreadSnapshot, run: SuspendedRun): void {
  const plan = readPlanState(snapshot);
  if (plan?.waiting?.kind === 'skill' && plan.waiting.run.flowId === run.flowId) {
    snapshot.extensions = writePlanState(snapshot, { ...plan, waiting: { ...plan.waiting, run } }).extensions;
    return;
  }
  writeSuspendedRun(snapshot, run.flowId, run);
}

/** Arguments edited in an approval must be valid for the tool: the call runs with them. */
function checkEditedArguments(question: SuspensionRecord, tools: ToolSet): void {
  if (question.kind !== 'approval') return;
  const decision = question.answer as ApprovalDecision;
  if (decision.decision !== 'edit') return;
  const tool = question.toolName ? tools.get(question.toolName) : undefined;
  if (!tool) return;
  const verdict = compileSchema(tool.inputSchema)(decision.arguments);
  if (!verdict.valid)
    throw new SuspensionError({
      reason: 'invalid_feedback',
      suspensionId: question.id,
      message: `The edited arguments do not fit ${tool.name}'s input schema: ${verdict.problems.join('; ')}.`,
      problems: verdict.problems,
    });
}
