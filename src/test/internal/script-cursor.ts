/** A step of a script together with its position, which `calls` and error messages report. */
export interface IndexedStep<Step> {
  step: Step;
  index: number;
}

/** Plays a script: hands out the first unconsumed matching step and consumes it unless it repeats. */
export interface ScriptCursor<Step> {
  take(isMatch: (step: Step) => boolean): IndexedStep<Step> | undefined;
  /** Unconsumed steps that do not repeat: what a finished test expects to be zero. */
  remaining(): number;
  /** Every step that could still answer, repeating ones included, in script order. */
  pending(): IndexedStep<Step>[];
}

/** Creates the cursor shared by the scripted model and the OpenAI-compatible test server. */
export function createScriptCursor<Step extends { repeat?: boolean }>(
  steps: readonly Step[],
): ScriptCursor<Step> {
  const consumed = new Set<number>();
  const pending = () => steps.flatMap((step, index) => (consumed.has(index) ? [] : [{ step, index }]));
  return {
    take(isMatch) {
      // A loop rather than `pending().find`: a model under load is asked this for every call.
      for (let index = 0; index < steps.length; index++) {
        const step = steps[index] as Step;
        if (consumed.has(index) || !isMatch(step)) continue;
        if (step.repeat !== true) consumed.add(index);
        return { step, index };
      }
      return undefined;
    },
    remaining: () => pending().filter(({ step }) => step.repeat !== true).length,
    pending,
  };
}
