/**
 * The turns this agent is running now, one per thread (the lease allows no more), so that a stop said
 * while a turn runs reaches it (seed 004 adaptive termination, `wants_to_stop`): a second `send` whose
 * text is a stop does not wait for the thread's lease — it raises the running turn's stop flag, which the
 * skill loop reads at its next safe point, and answers with that turn's result once it has ended. It
 * also keeps the work a turn goes on with after its reply (background flows), which the thread's next
 * turn waits for.
 * docs/decisions/0070-a-stop-reaches-the-running-turn.md.
 */
import type { TurnResult } from './turn-types.js';

/** The running turn's side: whether a stop was asked, and how it ended. */
export interface LiveTurn {
  /** The user's stop message, once one came while the turn ran. */
  readonly stopText: string | undefined;
  stopRequested(): boolean;
  /** The turn ended: a stop waiting on it gets the same result (or error). */
  end(outcome: TurnOutcome): void;
}

export interface LiveTurns {
  /** Registers the thread's turn as running. */
  start(threadId: string): LiveTurn;
  /**
   * Asks the thread's running turn to stop; resolves with its result once it has ended. `undefined` when
   * no turn of this agent runs on the thread.
   */
  stop(threadId: string, text: string): Promise<TurnResult> | undefined;
  /** Work of the thread's turn that goes on after its reply (background flows being saved). */
  afterReply(threadId: string, work: Promise<void>): void;
  /** Resolves once the thread's work after earlier replies is done: its next turn starts from it. */
  settled(threadId: string): Promise<void>;
  /** Resolves once the work after every thread's reply is done (before the agent closes its store). */
  drain(): Promise<void>;
}

type TurnOutcome = { result: TurnResult } | { error: unknown };

interface Running extends LiveTurn {
  stopText: string | undefined;
  /** Those waiting for the turn's end: only stops do, so most turns make no promise at all. */
  waiting: Array<(outcome: TurnOutcome) => void>;
}

export function createLiveTurns(): LiveTurns {
  const running = new Map<string, Running>();
  const after = new Map<string, Promise<void>>();
  return {
    start(threadId) {
      const turn: Running = {
        stopText: undefined,
        waiting: [],
        stopRequested: () => turn.stopText !== undefined,
        end(outcome) {
          if (running.get(threadId) === turn) running.delete(threadId);
          for (const settle of turn.waiting.splice(0)) settle(outcome);
        },
      };
      running.set(threadId, turn);
      return turn;
    },
    stop(threadId, text) {
      const turn = running.get(threadId);
      if (!turn) return undefined;
      turn.stopText ??= text;
      return new Promise<TurnResult>((resolve, reject) => {
        turn.waiting.push((outcome) =>
          'result' in outcome ? resolve(outcome.result) : reject(outcome.error),
        );
      });
    },
    afterReply(threadId, work) {
      const all = Promise.all([after.get(threadId), work.catch(() => undefined)]).then(() => undefined);
      after.set(threadId, all);
      all.then(() => {
        if (after.get(threadId) === all) after.delete(threadId);
      });
    },
    settled: (threadId) => after.get(threadId) ?? Promise.resolve(),
    drain: () => Promise.all([...after.values()]).then(() => undefined),
  };
}

/** Runs `work` as the thread's live turn: a stop said meanwhile reaches it and gets its result. */
export async function runLiveTurn(
  liveTurns: LiveTurns,
  threadId: string,
  work: (live: LiveTurn) => Promise<TurnResult>,
): Promise<TurnResult> {
  const live = liveTurns.start(threadId);
  try {
    const result = await work(live);
    live.end({ result });
    return result;
  } catch (error) {
    live.end({ error });
    throw error;
  }
}
