/**
 * The outcome of a run whose model call failed or answered with nothing: a graceful failure whose
 * headline is the model error, redacted.
 */
import type { SkillOutcome } from '../spec/index.js';
import { toModelError } from './call-model.js';
import { gracefulFailure } from './describe-progress.js';
import type { SkillRun } from './internal/skill-run.js';

/** Ends the run for a model that failed. */
export function modelFailure(run: SkillRun, error: unknown): SkillOutcome {
  const message = run.batch.redact.text(toModelError('skill', error).message);
  return gracefulFailure({ state: run.state, category: 'model_error', headline: ensurePeriod(message) });
}

function ensurePeriod(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
