/**
 * Goes on with a suspended skill run once people answered every question of its step (seed 002 HITL
 * V2, DESIGN.md invariants 6 and 7). Each answer settles its call, and the result takes the place of
 * the call's suspended result in the run's checkpoint:
 * - an approval runs the held call exactly once, bound to its idempotency key and the hash of the
 *   arguments approved (edited arguments are approved as edited); a refusal (or an expired question)
 *   is a final `auth_error`, and the call never runs;
 * - feedback is the call's result — the tool is not run again;
 * - an unknown outcome is what the person says: it happened (their answer is the result), it did not
 *   (the call runs once more under the same key), or it is skipped;
 * - a failed call that changed files (seed 004) keeps its error as the result, and its files are rolled
 *   back, kept (the run stops), or kept while the run goes on.
 * A note tells the model what people decided, and repeats of settled calls in the rest of the run are
 * answered from the settlement (see `ToolBatchContext.answered`). What one answer does is settled by its
 * kind in `settleAnsweredQuestion` (settle-approval, settle-unknown-outcome, settle-feedback,
 * settle-file-question).
 */
import type { LanguageModelV3Message } from '@ai-sdk/provider';
import { addFailures, loopNote, resumeSkillLoopState, type SkillLoopState } from '../../loop/index.js';
import type { AnsweredCall, SuspendedRun, SuspensionRecord, ToolCallResult } from '../../spec/index.js';
import type { AnsweredCalls, ToolBatchContext } from '../../tool/index.js';
import { observe, record } from '../../turn/index.js';
import { expireSuspensions } from '../index.js';
import type { ContinueSuspendedRunOptions } from './continue-suspended-run-options.js';
import { askForValuesAgain, runsHeldArguments } from './internal/ask-for-values-again.js';
import { observeAnswer } from './internal/observe-answer.js';
import { openHeldArguments } from './internal/open-held-arguments.js';
import { settleAnsweredQuestion } from './settle-answered-question.js';
import { patchResults } from './suspended-transcript.js';

export type { ContinueSuspendedRunOptions } from './continue-suspended-run-options.js';

export type ContinuedRun =
  | { kind: 'waiting'; run: SuspendedRun }
  | { kind: 'declined'; reason: string }
  | {
      kind: 'resume';
      resume: { messages: LanguageModelV3Message[]; state: SkillLoopState };
      /** What the rest of the run's batches need: its turn id, and the answers for repeats. */
      batch: Pick<ToolBatchContext, 'turnId' | 'answered'>;
      answered: AnsweredCall[];
    };

export async function continueSuspendedRun(options: ContinueSuspendedRunOptions): Promise<ContinuedRun> {
  const { turn, parentId } = options;
  const now = turn.clock.now();
  const suspensions = expireSuspensions(options.run.suspensions, now);
  const run = { ...options.run, suspensions };
  if (suspensions.some((s) => s.status === 'open')) return { kind: 'waiting', run };
  const { messages, unopened } = openHeldArguments(
    run.messages as unknown as LanguageModelV3Message[],
    options.batch.sealer,
  );
  const loopState = run.state as unknown as SkillLoopState;
  const answered = [...(run.answered ?? [])];

  if (run.skill === 'confirm-continue' || run.skill === 'user-stop') {
    const question = suspensions[0];
    const goOn = question?.status === 'answered' && question.answer === true;
    if (question) observeAnswer(turn, question, goOn ? 'continue' : 'stop', parentId);
    if (!goOn) return { kind: 'declined', reason: 'The user chose not to go on.' };
    return resumeWith(options, messages, resumeSkillLoopState(loopState, { now, confirmed: true }), answered);
  }

  const settled = new Map<string, ToolCallResult>();
  const notes: string[] = [];
  let stopped: string | undefined;
  for (const question of suspensions) {
    if (question.kind === 'escalation') {
      const answer = question.status === 'answered' ? String(question.answer) : '(no answer)';
      notes.push(
        `You asked the user for help${question.toolName ? ` with ${question.toolName}` : ''}. They answered: ${answer}`,
      );
      observeAnswer(turn, question, 'answered', parentId);
      continue;
    }
    if (!question.callId || !question.toolName) continue;
    const outcome =
      unopened.has(question.callId) && runsHeldArguments(question)
        ? askForValuesAgain(question)
        : await settleAnsweredQuestion(options, question, messages);
    if ('ask' in outcome) {
      // The answer raised a new question (a remote agent asks again): the run waits once more.
      const again: SuspensionRecord = {
        ...question,
        id: `${question.id}.${suspensions.length}`,
        status: 'open',
        prompt: outcome.ask,
        createdAt: now,
      };
      delete again.answer;
      delete again.answeredAt;
      return {
        kind: 'waiting',
        run: { ...run, suspensions: suspensions.map((s) => (s.id === question.id ? again : s)) },
      };
    }
    settled.set(question.callId, outcome.result);
    if (outcome.note) notes.push(outcome.note);
    if (outcome.stop) stopped = outcome.stop;
    if (outcome.remember) answered.push(outcome.remember);
    record(turn, 'tool-result', { flowId: parentId, ...outcome.result });
    observe(
      turn,
      'tool-execution',
      { callId: question.callId, toolName: question.toolName, status: outcome.result.status },
      parentId,
    );
  }
  if (stopped !== undefined) return { kind: 'declined', reason: stopped };
  const patched = messages.map((message) =>
    message.role === 'tool' ? patchResults(message, settled) : message,
  );
  if (notes.length > 0) patched.push(loopNote('human-answer', notes.join('\n')));
  const succeeded = [...settled.values()].filter((r) => r.status === 'success').map((r) => r.toolName);
  const state = resumeSkillLoopState(loopState, { now });
  return resumeWith(
    options,
    patched,
    {
      ...state,
      succeededTools: [...new Set([...state.succeededTools, ...succeeded])],
      // A refusal is how the run ends if the model finishes without the call (docs/decisions/0088).
      failures: addFailures(state.failures, [...settled.values()]),
    },
    answered,
  );
}

function resumeWith(
  options: ContinueSuspendedRunOptions,
  messages: LanguageModelV3Message[],
  state: SkillLoopState,
  answered: AnsweredCall[],
): ContinuedRun {
  return {
    kind: 'resume',
    resume: { messages, state },
    batch: {
      turnId: options.run.runTurnId,
      ...(answered.length > 0 ? { answered: lookupOf(answered) } : {}),
    },
    answered,
  };
}

/** The pipeline's view of settled calls. */
export function lookupOf(answered: readonly AnsweredCall[]): AnsweredCalls {
  const parse = (entry: AnsweredCall | undefined) =>
    entry ? (JSON.parse(entry.result) as ToolCallResult) : undefined;
  return {
    forTool: (toolName) => parse(answered.find((a) => a.toolName === toolName && a.argsHash === undefined)),
    forCall: (toolName, argsHash) =>
      parse(answered.find((a) => a.toolName === toolName && a.argsHash === argsHash)),
  };
}
