import { FlowstackError } from './flowstack-error.js';

/** Another turn holds the thread's lease; turns of one thread run one at a time. */
export class ThreadBusyError extends FlowstackError {
  readonly threadId: string;
  constructor(options: { threadId: string }) {
    super({
      name: 'ThreadBusyError',
      code: 'thread_busy',
      message: `Thread '${options.threadId}' is running another turn.`,
    });
    this.threadId = options.threadId;
  }
}
