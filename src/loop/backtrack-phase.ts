/**
 * BACKTRACK (seed 004): the approach failed systematically, so the loop cleans the polluted context
 * (`cleanContext`: short error lines and one reflection summary, no orphaned calls) and counts the
 * backtrack on the circuit breaker; the fifth opens it (level 2) and the run ends gracefully.
 */
import type { ToolCallResult } from '../spec/index.js';
import { updateCircuitBreaker } from './circuit-breaker.js';
import type { ReflectDecision } from './classify-tool-error.js';
import { cleanContext } from './clean-context.js';
import { describeBacktrack } from './describe-progress.js';
import { emit, offeredToolNames, type SkillRun } from './internal/skill-run.js';
import { loopMessageKind, loopNote } from './skill-messages.js';

/** Counts a backtrack and replaces the error details in the transcript with one reflection summary. */
export function backtrackPhase(
  run: SkillRun,
  options: { decision: ReflectDecision; results: readonly ToolCallResult[] },
): void {
  const updated = updateCircuitBreaker(run.state.breaker, { type: 'backtrack' }, run.limits);
  run.state.breaker = updated.state;
  const described = describeBacktrack({
    state: run.state,
    backtracks: updated.state.backtracks,
    maxBacktracks: run.limits.maxBacktracks,
    decision: options.decision,
    errors: options.results.filter((r) => r.status === 'error'),
    alternatives: offeredToolNames(run),
    shortened: run.cleanOnBacktrack,
  });
  run.state.backtrackNotes = [...run.state.backtrackNotes, described.note].slice(-run.limits.maxBacktracks);
  if (run.cleanOnBacktrack) {
    const cleaned = cleanContext(run.messages, {
      summary: described.summary,
      maxErrorChars: run.limits.cleanedErrorChars,
    });
    run.messages = cleaned.messages;
    emit(run, {
      type: 'backtrack',
      backtracks: updated.state.backtracks,
      summary: described.summary,
      charsBefore: cleaned.charsBefore,
      charsAfter: cleaned.charsAfter,
    });
  } else {
    // Without cleaning (for comparison), the summary is still given, after the full error details.
    run.messages = [...run.messages.filter((m) => loopMessageKind(m) !== 'reflection-summary')];
    run.messages.push(loopNote('reflection-summary', described.summary));
    emit(run, {
      type: 'backtrack',
      backtracks: updated.state.backtracks,
      summary: described.summary,
      charsBefore: 0,
      charsAfter: 0,
    });
  }
  for (const effect of updated.effects)
    if (effect.type === 'open')
      emit(run, {
        type: 'breaker',
        level: 2,
        reason: `${effect.backtracks} backtracks: the run ends with what it achieved`,
      });
}
