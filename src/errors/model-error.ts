import { FlowstackError } from './flowstack-error.js';

/** The language model failed or answered with something that cannot be used. */
export class ModelError extends FlowstackError {
  readonly phase: string;
  constructor(options: { phase: string; message: string; cause?: unknown }) {
    super({ name: 'ModelError', code: 'model', message: options.message, cause: options.cause });
    this.phase = options.phase;
  }
  override toJSON() {
    return { ...super.toJSON(), phase: this.phase };
  }
}
