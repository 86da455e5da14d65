import { FlowstackError } from './flowstack-error.js';

/** A push would make the flow stack deeper than its bound (DESIGN.md invariant 1). */
export class StackDepthError extends FlowstackError {
  readonly maxDepth: number;
  constructor(options: { maxDepth: number; flowName: string }) {
    super({
      name: 'StackDepthError',
      code: 'stack_depth',
      message: `Cannot push '${options.flowName}': the flow stack is at its bound of ${options.maxDepth}.`,
    });
    this.maxDepth = options.maxDepth;
  }
}
