/**
 * The skill loop (seed 004 RVR-B, seed 000 skill execution) as an orchestrator of phase functions:
 * terminate? → react (one model call) → validate (the tool batch) → reflect (classify errors) →
 * backtrack (clean the context) → again. It always ends with exactly one `SkillOutcome`, returned once,
 * and never throws for anything the model, a tool or the clock does. Pseudo-code in
 * docs/architecture/skill-loop.md.
 */
import { describeThrown } from '../errors/index.js';
import type { SkillOutcome } from '../spec/index.js';
import { updateCircuitBreaker } from './circuit-breaker.js';
import { createSkillRun } from './create-skill-run.js';
import { gracefulFailure } from './describe-progress.js';
import { finishPhase } from './finish-phase.js';
import { finishSkillRun } from './finish-skill-run.js';
import { withCallIdSuffix } from './internal/resumed-call-ids.js';
import { emit, isStopRequested, type SkillRun } from './internal/skill-run.js';
import { modelFailure } from './model-failure.js';
import { reactPhase } from './react-phase.js';
import { readStepCalls } from './read-step-calls.js';
import { reflectionPrompt } from './reflection-prompt.js';
import type { RunSkillLoopOptions } from './run-skill-loop-options.js';
import { runStepCalls } from './run-step-calls.js';
import { shouldTerminate } from './should-terminate.js';
import type { SkillLoopResult } from './skill-loop-result.js';
import { assistantMessage, loopNote } from './skill-messages.js';
import { stoppedOutcome } from './stopped-outcome.js';
import { terminationOutcome } from './termination-outcome.js';

export type { TextToolCall } from './internal/skill-run.js';
export type { RunSkillLoopOptions } from './run-skill-loop-options.js';
export type { SkillLoopEvent } from './skill-loop-events.js';
export type { SkillLoopResult } from './skill-loop-result.js';

/**
 * Runs one skill to exactly one outcome (see the file's first comment).
 *
 * @example
 * const { outcome } = await runSkillLoop({
 *   model, prompt: [{ role: 'system', content: 'Find the cheapest flight.' }],
 *   tools: createToolSet([findFlights]), batch: { threadId, turnId, clock, maxContextChars: 1500, redact },
 *   complexity: 'simple', parentId: flow.id,
 * });
 */
export async function runSkillLoop(options: RunSkillLoopOptions): Promise<SkillLoopResult> {
  const run = createSkillRun(options);
  let outcome: SkillOutcome;
  try {
    outcome = await loop(run);
  } catch (error) {
    // A defect in the loop itself still ends the skill with an outcome rather than an exception.
    outcome = gracefulFailure({
      state: run.state,
      category: 'server_error',
      headline: `The skill loop failed: ${run.batch.redact.text(describeThrown(error))}.`,
    });
  }
  run.watch?.close();
  return finishSkillRun(run, outcome);
}

/** The RVR-B loop: terminate? → react → (reflection step | finish on text | run the step's calls) → again. */
async function loop(run: SkillRun): Promise<SkillOutcome> {
  for (;;) {
    const verdict = shouldTerminate({
      state: run.state,
      limits: run.limits,
      now: run.clock.now(),
      stopRequested: isStopRequested(run),
    });
    if (verdict.terminate) {
      emit(run, { type: 'terminated', reason: verdict.reason });
      return terminationOutcome(verdict.reason, run.state, run.limits);
    }
    const reflecting = run.state.breaker.reflectionDue;
    if (reflecting) run.messages.push(loopNote('reflection-prompt', reflectionPrompt(run)));
    const reacted = await reactPhase(run, reflecting ? 'reflect' : 'act');
    if (reacted.kind === 'stopped') return stoppedOutcome(run, reacted.reason);
    if (reacted.kind === 'failed') return modelFailure(run, reacted.error);
    const response = withCallIdSuffix(reacted.response, run.callIdSuffix);
    if (reflecting) {
      // Tools were withheld: only the explanation is kept; any call the model made anyway is dropped.
      if (response.text.trim() !== '')
        run.messages.push(assistantMessage({ text: response.text, toolCalls: [] }));
      run.state.breaker = updateCircuitBreaker(
        run.state.breaker,
        { type: 'reflection-done' },
        run.limits,
      ).state;
      continue;
    }
    const step = readStepCalls(run, response);
    if (step.calls.length === 0) {
      const text = response.text.trim();
      if (text === '') return modelFailure(run, new Error('The model answered with nothing.'));
      run.messages.push(assistantMessage({ text, toolCalls: [] }));
      const decision = await finishPhase(run, {
        outcome: 'success',
        data: { text },
        message: text,
        scratchpadEntries: [],
      });
      if (decision.accept) return decision.outcome;
      run.messages.push(loopNote(decision.kind, decision.feedback));
      continue;
    }
    const outcome = await runStepCalls(run, response, step);
    if (outcome) return outcome;
  }
}
