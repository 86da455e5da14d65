import { FlowstackError } from './flowstack-error.js';

/** One reason model-written code was refused before it ran. */
export interface CodeGuardrailProblem {
  kind: 'syntax' | 'import' | 'global' | 'statement' | 'entity' | 'shape' | 'empty';
  message: string;
  /** 1-based line of the problem, when the parser knows it. */
  line?: number;
}

/**
 * Model-written code failed the code guardrails (seed 000) and was not run. Thrown inside a tool, it
 * becomes a `validation_error` result the model can fix: `category` is read by the tool pipeline.
 */
export class CodeGuardrailError extends FlowstackError {
  readonly language: string;
  readonly problems: CodeGuardrailProblem[];
  readonly category = 'validation_error';
  constructor(options: { language: string; problems: CodeGuardrailProblem[] }) {
    const list = options.problems
      .slice(0, 10)
      .map((p) => (p.line !== undefined ? `line ${p.line}: ${p.message}` : p.message))
      .join('; ');
    super({
      name: 'CodeGuardrailError',
      code: 'code_guardrail',
      message: `The ${options.language} code was refused: ${list}`,
    });
    this.language = options.language;
    this.problems = options.problems;
  }
  override toJSON() {
    return { ...super.toJSON(), language: this.language, problems: this.problems };
  }
}
