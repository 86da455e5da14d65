/**
 * A turn whose process died too often (`limits.maxTurnAttempts`) is not tried again: it fails, saying
 * which of its calls started and may or may not have taken effect.
 */
import type { StateStore } from '../spec/index.js';
import { observe, type TurnState } from '../turn/index.js';
import { type InflightTurn, unfinishedCalls } from './inflight-turn.js';

export async function abandonTurn(turn: TurnState, inflight: InflightTurn, store: StateStore): Promise<void> {
  const unknown = await unfinishedCalls(store, turn.threadId, turn.turnId);
  turn.failed = true;
  const calls = unknown.map((e) => `${e.toolName} (${e.callId})`).join(', ');
  turn.replyParts.push({
    text:
      `This request was interrupted ${inflight.attempts - 1} times and was stopped.` +
      (calls ? ` These calls started and may or may not have taken effect: ${calls}.` : ''),
  });
  observe(turn, 'error', {
    phase: 'resume',
    message: `The turn was interrupted ${inflight.attempts - 1} times.`,
    unknownOutcomes: unknown.map((e) => ({ callId: e.callId, toolName: e.toolName, key: e.key })),
  });
}
