/**
 * `agent.resume`: answers one question of a suspended run (DESIGN.md invariant 6: the answer is the
 * call's result). The answer is saved with the turn's first commit; the run goes on once every question
 * of its step is answered, and the turn's reply says what happened — or which questions are still open.
 */
import { ThreadNotFoundError } from '../errors/index.js';
import { describeAnswer, recordAnswer } from '../hitl/resume/index.js';
import type { AgentConfig, ResumeOptions } from '../options/index.js';
import { closeInterruptedTurn, interruptedTurnOf } from '../replay/index.js';
import type { TurnResult } from '../turn/index.js';
import { type LiveTurn, runLiveTurn } from '../turn/index.js';
import type { StopSource } from '../util/index.js';
import type { LeasedSend } from './open-turn.js';
import { runTurn } from './run-turn.js';
import { loadOwnedThread } from './send-message.js';

export async function resumeThread(config: AgentConfig, options: ResumeOptions): Promise<TurnResult> {
  const { threadId, principal } = options;
  if (principal !== undefined) await loadOwnedThread(config, threadId, principal);
  await config.liveTurns.settled(threadId);
  // A stop said while the resumed turn runs reaches it as it reaches a message's turn (ADR 0070).
  return config.holdLease(threadId, (lease) =>
    runLiveTurn(config.liveTurns, threadId, (live) => resumeLeased(config, options, lease, live)),
  );
}

async function resumeLeased(
  config: AgentConfig,
  options: ResumeOptions,
  lease: StopSource,
  live: LiveTurn,
): Promise<TurnResult> {
  const { threadId, principal } = options;
  let loaded = await loadOwnedThread(config, threadId, principal);
  if (loaded.version === 0) throw new ThreadNotFoundError({ threadId });
  const interrupted = interruptedTurnOf(loaded.snapshot);
  const leased: LeasedSend = {
    threadId,
    text: '',
    lease,
    live,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.stream ? { stream: true } : {}),
    ...(principal !== undefined ? { principal } : {}),
  };
  // An answer whose turn died on the way is carried on; any other interrupted turn is closed first.
  if (interrupted?.answers !== undefined) {
    const replayed = await runTurn(config, leased, loaded, { interrupted });
    if (interrupted.answers === options.suspensionId) return replayed;
    loaded = await loadOwnedThread(config, threadId, principal);
  } else if (interrupted)
    loaded = await closeInterruptedTurn({ store: config.store, clock: config.clock, loaded, interrupted });
  const question = recordAnswer(loaded.snapshot, {
    suspensionId: options.suspensionId,
    answer: options.feedback,
    now: config.clock.now(),
    tools: config.planTools,
    ...(principal !== undefined ? { principal } : {}),
  });
  return runTurn(config, leased, loaded, {
    answer: config.redact.text(describeAnswer(question)),
    suspensionId: question.id,
  });
}
