import { FlowstackError } from './flowstack-error.js';

/**
 * Why an answer to a suspension was refused: no open question has that id on the thread, it was
 * answered already, it expired, or the answer does not fit the question. Nothing is changed.
 */
export type SuspensionErrorReason = 'not_found' | 'answered' | 'expired' | 'invalid_feedback';

export class SuspensionError extends FlowstackError {
  readonly reason: SuspensionErrorReason;
  readonly suspensionId: string;
  /** What is wrong with the answer (`invalid_feedback`). */
  readonly problems: string[];
  constructor(options: {
    reason: SuspensionErrorReason;
    suspensionId: string;
    message: string;
    problems?: string[];
  }) {
    super({ name: 'SuspensionError', code: `suspension_${options.reason}`, message: options.message });
    this.reason = options.reason;
    this.suspensionId = options.suspensionId;
    this.problems = options.problems ?? [];
  }
  override toJSON() {
    return {
      ...super.toJSON(),
      reason: this.reason,
      suspensionId: this.suspensionId,
      problems: this.problems,
    };
  }
}
