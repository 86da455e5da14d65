import { FlowstackError } from './flowstack-error.js';

export type SnapshotErrorReason = 'corrupt' | 'future_version' | 'invalid_shape';

/**
 * A stored snapshot cannot be read: it is not JSON, fails its schema, or was written by a newer
 * flowstack. The stored row is left untouched so that nothing is lost.
 */
export class SnapshotError extends FlowstackError {
  readonly threadId: string;
  readonly reason: SnapshotErrorReason;
  constructor(options: { threadId: string; reason: SnapshotErrorReason; message: string; cause?: unknown }) {
    super({
      name: 'SnapshotError',
      code: `snapshot_${options.reason}`,
      message: options.message,
      cause: options.cause,
    });
    this.threadId = options.threadId;
    this.reason = options.reason;
  }
  override toJSON() {
    return { ...super.toJSON(), threadId: this.threadId, reason: this.reason };
  }
}
