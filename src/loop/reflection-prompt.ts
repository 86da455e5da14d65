/**
 * The note that opens a reflection step after too many failed tool calls in a row: the recent failures,
 * and the request to explain what goes wrong before any tool is offered again.
 */
import type { SkillRun } from './internal/skill-run.js';

/** The reflection note for the run's recent failures. */
export function reflectionPrompt(run: SkillRun): string {
  const recent = run.state.failures
    .slice(-run.limits.errorsBeforeReflection)
    .map((f) => `- ${f.toolName}: ${f.category}: ${f.message.replace(/\s+/g, ' ').slice(0, 160)}`);
  return [
    `${run.state.breaker.consecutiveErrors} tool calls in a row failed:`,
    ...recent,
    'Tools are withheld for this reply. Before you continue, explain in a few sentences what is going wrong and what you will do differently. Do not call any tool now.',
  ].join('\n');
}
