/**
 * REFLECT (seed 004): reads the step's tool results, updates the run's counters and circuit breaker,
 * classifies every error with `classifyToolError`, and returns the step's decision — the worst of
 * them. A step without errors continues. Withdrawals and a forced reflection (level 1) are recorded
 * as events; the next react phase acts on them.
 */
import type { ToolCallResult } from '../spec/index.js';
import { resultText } from '../tool/index.js';
import { updateCircuitBreaker } from './circuit-breaker.js';
import { classifyToolError, type ReflectDecision, worstDecision } from './classify-tool-error.js';
import { emit, offeredToolNames, type SkillRun } from './internal/skill-run.js';
import { addFailures } from './skill-loop-state.js';
import type { ValidateResult } from './validate-phase.js';

/** Completed calls kept for summaries; older ones fall off. */
const keptEntries = 20;
const maxKeptOutputChars = 4_000;

/** Updates the counters and breaker from the step's results and returns the step's decision, naming the call it is about. */
export function reflectPhase(
  run: SkillRun,
  validated: Pick<ValidateResult, 'results' | 'repeated' | 'notOffered'>,
): ReflectDecision & { callId?: string; toolName?: string } {
  const { results } = validated;
  const { state, limits } = run;
  const updated = updateCircuitBreaker(
    state.breaker,
    {
      type: 'tool-results',
      results: results
        .filter((r) => r.status !== 'suspended')
        .map((r) => ({ toolName: r.toolName, ok: r.status === 'success' })),
    },
    limits,
  );
  state.breaker = updated.state;
  for (const effect of updated.effects) {
    if (effect.type === 'withdraw-tool')
      emit(run, { type: 'tool-withdrawn', toolName: effect.toolName, failures: effect.failures });
    else if (effect.type === 'force-reflection')
      emit(run, {
        type: 'breaker',
        level: 1,
        reason: `${effect.consecutiveErrors} tool errors in a row: the next turn is a reflection with tools withheld`,
      });
  }
  const errors = results.filter((r) => r.status === 'error');
  const succeeded = results.filter((r) => r.status === 'success');
  for (const r of succeeded) {
    if (!state.succeededTools.includes(r.toolName))
      state.succeededTools = state.succeededTools.concat(r.toolName);
    // The checkpoint is saved with every suspension: a large output is kept as its capped context text.
    const output = outputFits(r) ? r.output : r.contextText;
    const completed = state.completed.concat({ callId: r.callId, toolName: r.toolName, output });
    state.completed = completed.length > keptEntries ? completed.slice(-keptEntries) : completed;
  }
  if (results.length > 0)
    state.consecutiveFailedSteps =
      succeeded.length === 0 && errors.length > 0 ? state.consecutiveFailedSteps + 1 : 0;
  if (errors.length === 0) return { decision: 'continue', reason: 'no tool failed' };
  const offered = offeredToolNames(run);
  const decisions: ReflectDecision[] = [];
  const decided: { callId: string; toolName: string }[] = [];
  for (const result of errors) {
    if (result.status !== 'error') continue;
    state.failures = addFailures(state.failures, [result]);
    decided.push({ callId: result.callId, toolName: result.toolName });
    decisions.push(
      classifyToolError({
        toolName: result.toolName,
        error: result.error,
        offered: !validated.notOffered.includes(result.callId),
        failureStreak: state.breaker.toolFailureStreaks[result.toolName] ?? 1,
        repeatedCall: validated.repeated.includes(result.callId),
        alternatives: offered.filter((name) => name !== result.toolName).length,
      }),
    );
  }
  const decision = worstDecision(decisions);
  emit(run, { type: 'reflect', decision, errors: errors.length });
  return { ...decision, ...decided[decisions.indexOf(decision)] };
}

/**
 * Whether a result's output is small enough to keep whole. The JSON of the whole result, made once for the
 * journal (`resultText`), holds the output's: when it fits, so does the output.
 */
function outputFits(result: ToolCallResult & { status: 'success' }): boolean {
  if (resultText(result).length <= maxKeptOutputChars) return true;
  return (JSON.stringify(result.output)?.length ?? 0) <= maxKeptOutputChars;
}
