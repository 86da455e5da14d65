/**
 * The turns this agent is running now, one per thread (the lease allows no more), so that a stop said
 * while a turn runs reaches it (seed 004 adaptive termination, `wants_to_stop`): a second `send` whose
 * text is a stop does not wait for the thread's lease — it raises the running turn's stop flag, which the
 * skill loop reads at its next safe point, and answers with that turn's result once it has ended.
 * docs/decisions/0070-a-stop-reaches-the-running-turn.md.
 */
import type { TurnResult } from '../turn/index.js';

/** The running turn's side: whether a stop was asked, and how it ended. */
export interface LiveTurn {
  /** The user's stop message, once one came while the turn ran. */
  readonly stopText: string | undefined;
  stopRequested(): boolean;
  /** The turn ended: a stop waiting on it gets the same result (or error). */
  end(outcome: { result: TurnResult } | { error: unknown }): void;
}

export interface LiveTurns {
  /** Registers the thread's turn as running. */
  start(threadId: string): LiveTurn;
  /**
   * Asks the thread's running turn to stop; resolves with its result once it has ended. `undefined` when
   * no turn of this agent runs on the thread.
   */
  stop(threadId: string, text: string): Promise<TurnResult> | undefined;
}

interface Running extends LiveTurn {
  stopText: string | undefined;
  done: Promise<TurnResult>;
}

export function createLiveTurns(): LiveTurns {
  const running = new Map<string, Running>();
  return {
    start(threadId) {
      let settle: (outcome: { result: TurnResult } | { error: unknown }) => void = () => undefined;
      const done = new Promise<TurnResult>((resolve, reject) => {
        settle = (outcome) => ('result' in outcome ? resolve(outcome.result) : reject(outcome.error));
      });
      // Nobody may be waiting for it: a failed turn without a stop must not be an unhandled rejection.
      done.catch(() => undefined);
      const turn: Running = {
        stopText: undefined,
        done,
        stopRequested: () => turn.stopText !== undefined,
        end(outcome) {
          if (running.get(threadId) === turn) running.delete(threadId);
          settle(outcome);
        },
      };
      running.set(threadId, turn);
      return turn;
    },
    stop(threadId, text) {
      const turn = running.get(threadId);
      if (!turn) return undefined;
      turn.stopText ??= text;
      return turn.done;
    },
  };
}
