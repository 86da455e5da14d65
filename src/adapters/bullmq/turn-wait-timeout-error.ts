import { FlowstackError } from '../../errors/index.js';

/**
 * No worker answered a queued turn in time. The turn is not cancelled: it may still run (`state` says
 * where its job was — `waiting` or `delayed` for a busy queue or no workers, `active` for a long turn),
 * and `waitFor(jobId)` can wait for it again.
 */
export class TurnWaitTimeoutError extends FlowstackError {
  readonly jobId: string;
  readonly state: string;
  constructor(options: { jobId: string; state: string; timeoutMs: number }) {
    super({
      name: 'TurnWaitTimeoutError',
      code: 'turn_wait_timeout',
      message: `No worker answered turn job ${options.jobId} within ${options.timeoutMs} ms (the job is ${options.state}). Are workers running on this queue?`,
    });
    this.jobId = options.jobId;
    this.state = options.state;
  }
  override toJSON() {
    return { ...super.toJSON(), jobId: this.jobId, state: this.state };
  }
}
