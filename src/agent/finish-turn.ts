/**
 * The `finish` effect: the reply is composed, the in-flight record goes and the request is logged, the
 * turn is saved for the last time (with its `final-response`), and the `TurnResult` is made.
 */
import { listFileSnapshots } from '../consistency/index.js';
import { describeSuspension, openSuspensions } from '../hitl/resume/index.js';
import { createUsageTally } from '../observe/index.js';
import { endInflight } from '../replay/index.js';
import { composeReply } from '../respond/index.js';
import { commitTurn, record, type TurnResult, type TurnState, type TurnStatus } from '../turn/index.js';
import type { OpenTurn } from './open-turn.js';

export async function finishTurn(open: OpenTurn, how: { stopped: boolean }): Promise<TurnResult> {
  const { turn, inflight, config } = open;
  const { threadId } = turn;
  const pending = turn.snapshot.pending;
  const composed = composeReply(turn.replyParts, pending?.question);
  // Redacted as its streamed deltas were, so that what a live reader saw is what the thread keeps.
  const reply = { ...composed, text: config.redact.text(composed.text) };
  record(turn, 'message', { role: 'assistant', text: reply.text });
  turn.snapshot.turnCount += 1;
  const status = statusOf(turn);
  endInflight(turn, inflight, { status, reply: reply.text });
  turn.observations.push({
    specVersion: 1,
    threadId,
    turnId: turn.turnId,
    type: 'final-response',
    time: config.clock.now(),
    data: { text: reply.text, status },
  });
  // The user's stop ends a flow as a cancel (a recovery the policy records) or the turn itself.
  const stopped =
    how.stopped ||
    turn.observations.some(
      (o) => o.type === 'recovery' && (o.data as { action?: unknown }).action === 'user-stop',
    );
  const { observations } = await commitTurn(turn, config.store, config.bus);
  const waiting = openSuspensions(turn.snapshot);
  const result: TurnResult = {
    threadId,
    turnId: turn.turnId,
    status,
    reply: reply.text,
    frames: reply.frames,
    stack: turn.snapshot.stack,
    observations,
    usage: open.loop.options.telemetry?.usage() ?? createUsageTally().total(),
  };
  if (pending) result.pending = pending;
  if (waiting.length > 0) result.suspensions = waiting.map(describeSuspension);
  // A turn that stopped (a failure, the user's stop) offers to roll back what its calls left changed.
  if (status === 'suspended' || status === 'failed' || stopped) {
    const undecided = (await listFileSnapshots(config.files.store, threadId)).filter(
      (s) => s.status === 'failed' || s.status === 'taken',
    );
    if (undecided.length > 0) result.fileSnapshots = undecided;
  }
  return result;
}

function statusOf(turn: TurnState): TurnStatus {
  // A turn that failed says so even when an earlier question still stands: the failure is the news.
  if (turn.failed) return 'failed';
  if (turn.snapshot.pending) return 'needs-input';
  if (turn.suspended) return 'suspended';
  return turn.failed ? 'failed' : 'completed';
}
