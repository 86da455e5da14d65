/**
 * Closes a turn whose process died when the user moved on (docs/decisions/0017): its in-flight record
 * goes, and the calls it started without a recorded result are reported as unknown outcomes — never
 * guessed, never re-run. Whatever it saved (a plan's progress) stays, for the next message to go on from.
 * Nothing is saved here: the report is carried into the next turn's first commit, so closing the old turn
 * and starting the new one are one write (a process that dies before it closes the old turn again).
 */
import type { StateStore } from '../spec/index.js';
import type { LoadedThread } from '../turn/index.js';
import { observe, type TurnState } from '../turn/index.js';
import type { Clock } from '../util/index.js';
import { type InflightTurn, unfinishedCalls } from './inflight-turn.js';
import { settleInterruptedAudit } from './settle-interrupted-audit.js';

export async function closeInterruptedTurn(options: {
  store: StateStore;
  clock: Clock;
  loaded: LoadedThread;
  interrupted: InflightTurn;
}): Promise<LoadedThread> {
  const { store, clock, loaded, interrupted } = options;
  const turn: TurnState = {
    threadId: loaded.snapshot.threadId,
    turnId: interrupted.turnId,
    snapshot: loaded.snapshot,
    baseVersion: loaded.version,
    history: [],
    observations: [],
    replyParts: [],
    failed: true,
    suspended: false,
    clock,
    lease: undefined,
  };
  const unknown = await unfinishedCalls(store, turn.threadId, interrupted.turnId);
  // The audit rows the dead process left started (a write of their own: settling them twice is harmless).
  await settleInterruptedAudit({ store, clock, threadId: turn.threadId });
  const { turn: _closed, ...extensions } = turn.snapshot.extensions;
  turn.snapshot.extensions = extensions;
  observe(turn, 'error', {
    phase: 'resume',
    message: 'The turn was interrupted before it finished; a newer message replaced it.',
    ...(unknown.length > 0
      ? { unknownOutcomes: unknown.map((e) => ({ callId: e.callId, toolName: e.toolName, key: e.key })) }
      : {}),
  });
  return { snapshot: turn.snapshot, version: loaded.version, carried: turn.observations };
}
