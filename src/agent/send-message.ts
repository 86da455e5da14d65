/**
 * `agent.send`: one user message, one turn, under the thread's lease. A request id already answered
 * returns its answer; a turn whose process died is run again by the same request (replayed, nothing it
 * completed runs twice) and closed by any other message first (DESIGN.md invariants 5 and 12).
 */
import { ThreadNotFoundError } from '../errors/index.js';
import { describeSuspension, openSuspensions } from '../hitl/resume/index.js';
import { isStopMessage, prepareInput } from '../nlu/index.js';
import type { AgentConfig, SendOptions } from '../options/index.js';
import { assertSendExecution } from '../options/index.js';
import {
  assertSameRequest,
  closeInterruptedTurn,
  findRequest,
  fingerprintRequest,
  interruptedTurnOf,
  repeatedResult,
} from '../replay/index.js';
import { type LoadedThread, loadOrCreateThread, runLiveTurn, type TurnResult } from '../turn/index.js';
import { copyWith } from '../util/index.js';
import type { LeasedSend } from './open-turn.js';
import { runTurn } from './run-turn.js';

export async function sendMessage(config: AgentConfig, options: SendOptions): Promise<TurnResult> {
  const text = prepareInput(options.text, { maxChars: config.limits.maxInputChars });
  assertSendExecution(config.options, options, config.plan !== undefined);
  const { threadId } = options;
  // Someone else's thread is refused before its lease is touched, so a stranger cannot make the
  // owner's turn wait; the owner is checked again under the lease.
  if (options.principal !== undefined) await loadOwnedThread(config, threadId, options.principal);
  // A stop said while the thread's turn runs stops that turn at its next safe point, and gets its answer
  // (seed 004; docs/decisions/0070-a-stop-reaches-the-running-turn.md).
  if (isStopMessage(text)) {
    const stopped = config.liveTurns.stop(threadId, config.redact.text(text));
    if (stopped) return stopped;
  }
  // Background flows of the thread's last turn land before this message is read.
  await config.liveTurns.settled(threadId);
  // The same id with another message is a reused id, refused rather than answered with another turn.
  const requestHash = options.requestId !== undefined ? fingerprintRequest(text) : undefined;
  return config.holdLease(threadId, (lease) =>
    runLiveTurn(config.liveTurns, threadId, (live) =>
      runLeasedTurn(
        config,
        copyWith(options, { lease, live, ...(requestHash !== undefined ? { requestHash } : {}) }),
        text,
      ),
    ),
  );
}

/** The message's turn under the lease: a repeated request, an interrupted turn, or a new turn. */
async function runLeasedTurn(config: AgentConfig, leased: LeasedSend, text: string): Promise<TurnResult> {
  const { threadId, requestId } = leased;
  let loaded = await loadOwnedThread(config, threadId, leased.principal);
  const answered = requestId !== undefined ? findRequest(loaded.snapshot, requestId) : undefined;
  if (answered) {
    assertSameRequest(answered, leased.requestHash);
    // The questions the thread still waits for come with it: a client that lost the first answer
    // (a crash, a dropped connection) learns from its retry what to answer.
    const repeated = repeatedResult(threadId, answered, loaded.snapshot);
    const waiting = openSuspensions(loaded.snapshot);
    return waiting.length > 0 ? { ...repeated, suspensions: waiting.map(describeSuspension) } : repeated;
  }
  const interrupted = interruptedTurnOf(loaded.snapshot);
  if (interrupted && requestId !== undefined && interrupted.requestId === requestId) {
    assertSameRequest(interrupted, leased.requestHash);
    return runTurn(config, leased, loaded, { interrupted });
  }
  if (interrupted)
    loaded = await closeInterruptedTurn({ store: config.store, clock: config.clock, loaded, interrupted });
  return runTurn(config, leased, loaded, { text: config.redact.text(text) });
}

/** The thread (a new one when it does not exist yet); to anyone but the principal that started it, it does not exist. */
export async function loadOwnedThread(
  config: AgentConfig,
  threadId: string,
  principal: string | undefined,
): Promise<LoadedThread> {
  const loaded = await loadOrCreateThread(config.store, threadId, principal);
  if (principal !== undefined && loaded.version > 0 && loaded.snapshot.principal !== principal)
    throw new ThreadNotFoundError({ threadId });
  return loaded;
}
