/**
 * A message that answers the question of the flow on top, whose run waits for people (a plain "yes" to
 * a lone approval, a blocking tool's text answer): it is recorded as the answer, and the turn goes on
 * with that flow instead of routing the message. A message that looks like an answer but is not a clear
 * one records nothing; the turn goes on with the flow, which asks its questions again.
 */

import { observe, type TurnState } from '../../turn/index.js';
import { readSuspendedRun, writeSuspendedRun } from '../index.js';
import { answerRunFromText } from './answer-run-from-text.js';

export function answerWaitingFlow(turn: TurnState, text: string, now: number): boolean {
  const top = turn.snapshot.stack.at(-1);
  const run = top ? readSuspendedRun(turn.snapshot, top.id) : undefined;
  if (!run) return false;
  const answered = answerRunFromText(run, text, {
    now,
    ...(turn.snapshot.principal !== undefined ? { principal: turn.snapshot.principal } : {}),
  });
  if (!answered) return false;
  if (answered.kind === 'unclear') {
    // Nothing is recorded: the flow's run keeps waiting, and its questions are put again after this.
    turn.replyParts.push({ text: answered.reply });
    observe(turn, 'intent', { source: 'hitl', decision: 'unclear', flow: top?.name }, run.flowId);
    return true;
  }
  writeSuspendedRun(turn.snapshot, run.flowId, answered.run);
  observe(turn, 'intent', { source: 'hitl', decision: 'answer', flow: top?.name }, run.flowId);
  return true;
}
