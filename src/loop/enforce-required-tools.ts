/**
 * Required-tool enforcement (seed 002 TAEF): a step that declares required tools may not answer
 * without having called them successfully — a model that "answers" without the tool is inventing the
 * result. Pure: the loop sends the prompt, counts the retries, and after the last one takes the
 * answer with the validation marked failed.
 */

export interface RequiredToolsVerdict {
  passed: boolean;
  missing: string[];
}

/** Which required tools have not succeeded yet. */
export function checkRequiredTools(options: {
  required: readonly string[];
  succeeded: readonly string[];
}): RequiredToolsVerdict {
  const missing = options.required.filter((name) => !options.succeeded.includes(name));
  return { passed: missing.length === 0, missing };
}

/** What the model is told when it answers without a required tool. */
export function enforcementPrompt(missing: readonly string[]): string {
  const names = missing.map((n) => `'${n}'`).join(', ');
  return (
    `Your answer was not accepted: this step requires calling ${names}, and ${missing.length === 1 ? 'it has' : 'they have'} not been called successfully. ` +
    'Do not answer from memory or guess the result. Call the required tool now, then finish with its actual result.'
  );
}
