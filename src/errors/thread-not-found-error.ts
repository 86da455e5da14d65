import { FlowstackError } from './flowstack-error.js';

/** A thread id was named that no store holds. */
export class ThreadNotFoundError extends FlowstackError {
  readonly threadId: string;
  constructor(options: { threadId: string }) {
    super({
      name: 'ThreadNotFoundError',
      code: 'thread_not_found',
      message: `No thread '${options.threadId}'.`,
    });
    this.threadId = options.threadId;
  }
  override toJSON() {
    return { ...super.toJSON(), threadId: this.threadId };
  }
}
