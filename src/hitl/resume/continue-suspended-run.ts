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
 * answered from the settlement (see `ToolBatchContext.answered`). Over 400 lines: the settlement of each
 * kind of question stays in this one file, so that what an answer does reads in one place.
 */
import type { LanguageModelV3Message } from '@ai-sdk/provider';
import { loopNote, resumeSkillLoopState, type SkillLoopState } from '../../loop/index.js';
import type {
  AnsweredCall,
  ApprovalDecision,
  OutcomeDecision,
  SuspendedRun,
  SuspensionRecord,
  ToolCallResult,
} from '../../spec/index.js';
import {
  type AnsweredCalls,
  resumeToolCall,
  type ToolBatchContext,
  type ToolCallResumption,
  type ToolSet,
} from '../../tool/index.js';
import { observe, record, type TurnState } from '../../turn/index.js';
import { expireSuspensions } from '../index.js';
import { settleFileQuestion } from './settle-file-question.js';
import { argumentsOf, patchResults } from './suspended-transcript.js';

export interface ContinueSuspendedRunOptions {
  run: SuspendedRun;
  turn: TurnState;
  tools: ToolSet;
  batch: Omit<ToolBatchContext, 'tools'>;
  /** The flow or plan item the run belongs to (observations' parent). */
  parentId: string;
  /**
   * Settles feedback some tools handle themselves (an A2A delegation passes the answer to the remote
   * agent): a result, a new question, or `undefined` to take the answer as the result.
   */
  settleFeedback?: (
    record: SuspensionRecord,
    answer: unknown,
  ) => Promise<ToolCallResult | { ask: string } | undefined>;
}

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
  const messages = run.messages as unknown as LanguageModelV3Message[];
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
    const outcome = await settle(options, question, messages);
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
    { ...state, succeededTools: [...new Set([...state.succeededTools, ...succeeded])] },
    answered,
  );
}

type Settlement =
  | { result: ToolCallResult; note: string; remember?: AnsweredCall; stop?: string }
  | { ask: string };

async function settle(
  options: ContinueSuspendedRunOptions,
  question: SuspensionRecord,
  messages: readonly LanguageModelV3Message[],
): Promise<Settlement> {
  const { turn, parentId } = options;
  const callId = question.callId as string;
  const toolName = question.toolName as string;
  if (question.kind === 'rollback') {
    const settled = await settleFileQuestion(options.batch, question);
    observeAnswer(turn, question, settled.decision, parentId);
    await journalAnswer(options, question, settled.result);
    return settled;
  }
  if (question.kind === 'approval') {
    const decision: ApprovalDecision =
      question.status === 'answered'
        ? (question.answer as ApprovalDecision)
        : { decision: 'reject', reason: 'the approval request expired' };
    observeAnswer(turn, question, question.status === 'expired' ? 'expired' : decision.decision, parentId);
    if (decision.decision === 'reject') {
      const why = decision.reason ? `: ${options.batch.redact.text(decision.reason)}` : '';
      const result = refused(question, `The user refused this call${why}. Do not try it again.`);
      return {
        result,
        note: `The user REJECTED the call to ${toolName}${why}. Do not retry it; find another way or finish.`,
        remember: {
          toolName,
          ...(question.argsHash ? { argsHash: question.argsHash } : {}),
          result: JSON.stringify(result),
        },
      };
    }
    const input = decision.decision === 'edit' ? decision.arguments : argumentsOf(messages, callId);
    const result = await runCall(options, question, { kind: 'approved', input });
    const edited = decision.decision === 'edit' ? ' with the arguments the user edited' : '';
    return {
      result: edited
        ? {
            ...result,
            contextText: `(run${edited}: ${JSON.stringify(options.batch.redact.value(input))}) ${result.contextText}`,
          }
        : result,
      note: `The user approved the call to ${toolName}${edited}; it ran once and its result is above. Do not call it again for this.`,
      remember: {
        toolName,
        ...(question.argsHash ? { argsHash: question.argsHash } : {}),
        result: JSON.stringify(result),
      },
    };
  }
  if (question.kind === 'outcome_unknown') {
    const decision: OutcomeDecision =
      question.status === 'answered' ? (question.answer as OutcomeDecision) : { decision: 'skip' };
    observeAnswer(turn, question, decision.decision, parentId);
    if (decision.decision === 'not-happened') {
      const result = await runCall(options, question, {
        kind: 'rerun',
        input: argumentsOf(messages, callId),
      });
      return {
        result,
        note: `The user said the earlier call to ${toolName} did not take effect; it ran again.`,
      };
    }
    const happened = decision.decision === 'happened';
    const output = happened ? (decision.output ?? 'The user confirmed this call took effect.') : undefined;
    const result: ToolCallResult = happened
      ? {
          status: 'success',
          callId,
          toolName,
          output: options.batch.redact.value(output),
          contextText: textOf(options.batch.redact.value(output)),
        }
      : refused(question, 'The user chose to leave this call out; it did not run again.');
    await journalAnswer(options, question, result);
    return {
      result,
      note: happened
        ? `The user confirmed the earlier call to ${toolName} took effect. Do not call it again for this.`
        : `The user chose to leave out the call to ${toolName}. Do not call it again.`,
    };
  }
  // Feedback: the answer is the result (seed 002: "user feedback IS the tool result").
  const answer = question.status === 'answered' ? question.answer : undefined;
  observeAnswer(turn, question, 'answered', parentId);
  const own = options.settleFeedback ? await options.settleFeedback(question, answer) : undefined;
  if (own && 'ask' in own) return { ask: own.ask };
  const shown = options.batch.redact.value(answer);
  const result: ToolCallResult = own ?? {
    status: 'success',
    callId,
    toolName,
    output: shown,
    contextText: `The user answered: ${textOf(shown)}`,
  };
  await journalAnswer(options, question, result);
  // A tool that settled the answer itself (a remote agent's reply) speaks through its result alone.
  if (own) return { result, note: '' };
  return {
    result,
    note: `The call to ${toolName} is COMPLETED: the user answered ${textOf(shown)}. That is its result; do not call ${toolName} again, go on with the answer.`,
    remember: { toolName, result: JSON.stringify(result) },
  };
}

/** Runs a held call through the whole pipeline, approved for exactly these arguments or allowed to run again. */
async function runCall(
  options: ContinueSuspendedRunOptions,
  question: SuspensionRecord,
  how: Exclude<ToolCallResumption, { kind: 'answered' }>,
): Promise<ToolCallResult> {
  return resumeToolCall(heldCall(question), how, runBatch(options));
}

/** Records a person's answer as the call's journaled result, so the journal tells what happened. */
async function journalAnswer(
  options: ContinueSuspendedRunOptions,
  question: SuspensionRecord,
  result: ToolCallResult,
): Promise<void> {
  await resumeToolCall(heldCall(question), { kind: 'answered', result }, runBatch(options));
}

function heldCall(question: SuspensionRecord) {
  return {
    callId: question.callId as string,
    toolName: question.toolName as string,
    idempotencyKey: question.idempotencyKey,
    argsHash: question.argsHash,
  };
}

/** The batch of the suspended run: its own turn id, so that a held call keeps its idempotency key. */
function runBatch(options: ContinueSuspendedRunOptions): ToolBatchContext {
  return { ...options.batch, turnId: options.run.runTurnId, tools: options.tools };
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

function refused(question: SuspensionRecord, message: string): ToolCallResult {
  return {
    status: 'error',
    callId: question.callId as string,
    toolName: question.toolName as string,
    error: { category: 'auth_error', message, retryable: false, refusedBy: 'person' },
    contextText: `Error (auth_error) from tool '${question.toolName}': ${message}`,
  };
}

function observeAnswer(
  turn: TurnState,
  question: SuspensionRecord,
  decision: string,
  parentId: string,
): void {
  observe(
    turn,
    'resumed',
    {
      suspensionId: question.id,
      kind: question.kind,
      decision,
      ...(question.callId ? { callId: question.callId } : {}),
      ...(question.toolName ? { toolName: question.toolName } : {}),
      ...(question.answeredBy ? { answeredBy: question.answeredBy } : {}),
    },
    parentId,
  );
}

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
