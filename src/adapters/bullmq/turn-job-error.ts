import { FlowstackError } from '../../errors/index.js';

/**
 * A queued turn ended with an error in the worker that ran it (a bad input, an unknown thread, a turn
 * given up after its attempts). `remoteName` and `code` are those of the worker's error, so a caller can
 * tell an `InputError` from a `ThreadNotFoundError` without the worker's class.
 */
export class TurnJobError extends FlowstackError {
  readonly jobId: string;
  readonly threadId: string;
  readonly remoteName: string;
  constructor(options: {
    jobId: string;
    threadId: string;
    remoteName: string;
    code: string;
    message: string;
  }) {
    super({ name: 'TurnJobError', code: options.code, message: options.message });
    this.jobId = options.jobId;
    this.threadId = options.threadId;
    this.remoteName = options.remoteName;
  }
  override toJSON() {
    return { ...super.toJSON(), jobId: this.jobId, threadId: this.threadId, remoteName: this.remoteName };
  }
}
