import { FlowstackError } from './flowstack-error.js';

/** `request_reused`: a request id (an HTTP `Idempotency-Key`) came again with another message. */
export type InputErrorReason = 'empty' | 'too_long' | 'invalid' | 'request_reused';

/** The user's message cannot be processed as it is (empty, too long …). The thread is left unchanged. */
export class InputError extends FlowstackError {
  readonly reason: InputErrorReason;
  constructor(options: { reason: InputErrorReason; message: string }) {
    super({ name: 'InputError', code: `input_${options.reason}`, message: options.message });
    this.reason = options.reason;
  }
  override toJSON() {
    return { ...super.toJSON(), reason: this.reason };
  }
}
