import { FlowstackError } from './flowstack-error.js';

/** A definition (flow, tool, manifest, model setting) is invalid. Lists every problem, not only the first. */
export class ConfigurationError extends FlowstackError {
  readonly problems: string[];
  constructor(options: { message: string; problems?: string[]; cause?: unknown }) {
    const problems = options.problems ?? [];
    const detail = problems.length > 0 ? `\n- ${problems.join('\n- ')}` : '';
    super({
      name: 'ConfigurationError',
      code: 'configuration',
      message: `${options.message}${detail}`,
      cause: options.cause,
    });
    this.problems = problems;
  }
  override toJSON() {
    return { ...super.toJSON(), problems: this.problems };
  }
}
