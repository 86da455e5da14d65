import { ConfigurationError } from '../../errors/index.js';
import type { ScriptStep } from '../script-step.js';

/** The output fields of a step, shared by the scripted model's and the test server's steps. */
export type StepOutputFields = Pick<ScriptStep, 'text' | 'json' | 'reasoning' | 'toolCalls' | 'rawToolInput'>;

/** Rejects a script that cannot mean what its author wanted, naming every problem at once. */
export function validateScript(steps: readonly StepOutputFields[], source: string): void {
  // Checked once per model call (a step's `respond` output too): nothing is built for a step that is fine.
  let problems: string[] | undefined;
  for (let index = 0; index < steps.length; index++) {
    const step = steps[index] as StepOutputFields;
    if (step.text !== undefined && step.json !== undefined) {
      problems = add(problems, `step #${index}: give either \`text\` or \`json\`, not both`);
    }
    if (step.rawToolInput !== undefined && (step.toolCalls ?? []).length === 0) {
      problems = add(
        problems,
        `step #${index}: \`rawToolInput\` replaces the first tool call's input, but \`toolCalls\` is empty`,
      );
    }
    for (const call of step.toolCalls ?? []) {
      if (call.toolName === '')
        problems = add(problems, `step #${index}: a tool call has an empty \`toolName\``);
    }
  }
  if (problems !== undefined)
    throw new ConfigurationError({ message: `Invalid script for ${source}`, problems });
}

function add(problems: string[] | undefined, problem: string): string[] {
  const list = problems ?? [];
  list.push(problem);
  return list;
}
