/**
 * Saves a turn in one transaction (snapshot, history rows, observations), then publishes the
 * observations with the ids the store gave them: save before emit (DESIGN.md invariant 4).
 */
import type { ObservationBus } from '../observe/index.js';
import type { Observation, StateStore } from '../spec/index.js';
import { encodeSnapshot } from '../store/index.js';
import { recordThreadTaint } from './thread-taint.js';
import type { TurnState } from './turn-state.js';

export async function commitTurn(
  turn: TurnState,
  store: StateStore,
  bus: ObservationBus,
): Promise<{ version: number; observations: Observation[] }> {
  // Another process holds the thread now: what this turn did is not written over what that one does.
  if (turn.lease?.stopped) throw turn.lease.reason;
  recordThreadTaint(turn);
  turn.snapshot.historySeq += turn.history.length;
  const commit = await store.commit({
    threadId: turn.threadId,
    expectedVersion: turn.baseVersion,
    data: encodeSnapshot(turn.snapshot),
    ...(turn.snapshot.principal !== undefined ? { principal: turn.snapshot.principal } : {}),
    history: turn.history,
    observations: turn.observations.map((o) => ({ type: o.type, data: JSON.stringify(o) })),
    now: turn.clock.now(),
  });
  // The drafts are saved and the turn lets go of them: each becomes its observation by taking its id.
  const observations = turn.observations as Observation[];
  for (let i = 0; i < observations.length; i++)
    (observations[i] as Observation).id = commit.observationIds[i] ?? 0;
  turn.baseVersion = commit.version;
  turn.history = [];
  turn.observations = [];
  bus.publish(observations);
  return { version: commit.version, observations };
}
