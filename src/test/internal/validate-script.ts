import { ConfigurationError } from '../../errors/index.js';
import type { ScriptStep } from '../script-step.js';

/** The output fields of a step, shared by the scripted model's and the test server's steps. */
export type StepOutputFields = Pick<ScriptStep, 'text' | 'json' | 'reasoning' | 'toolCalls' | 'rawToolInput'>;

/** Rejects a script that cannot mean what its author wanted, naming every problem at once. */
export function validateScript(steps: readonly StepOutputFields[], source: string): void {
  const problems = steps.flatMap((step, index) => {
    const found: string[] = [];
    if (step.text !== undefined && step.json !== undefined) {
      found.push(`step #${index}: give either \`text\` or \`json\`, not both`);
    }
    if (step.rawToolInput !== undefined && (step.toolCalls ?? []).length === 0) {
      found.push(
        `step #${index}: \`rawToolInput\` replaces the first tool call's input, but \`toolCalls\` is empty`,
      );
    }
    for (const call of step.toolCalls ?? []) {
      if (call.toolName === '') found.push(`step #${index}: a tool call has an empty \`toolName\``);
    }
    return found;
  });
  if (problems.length > 0)
    throw new ConfigurationError({ message: `Invalid script for ${source}`, problems });
}
