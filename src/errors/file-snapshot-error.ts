import { FlowstackError } from './flowstack-error.js';

/**
 * Why a file snapshot cannot be taken or rolled back: the thread has no snapshot with that id
 * (`not_found`), a path leaves the allowed root (`outside_root`: `..`, an absolute path elsewhere, a
 * symbolic link out), a path is not a regular file (`not_a_file`), a stored record, content or journal
 * line does not read back as written (`corrupt`), or a file changed after the call the snapshot protects,
 * so rolling back would undo those later changes too (`conflict`; `force` rolls back anyway). Nothing on
 * disk is changed.
 */
export type FileSnapshotErrorReason = 'not_found' | 'outside_root' | 'not_a_file' | 'corrupt' | 'conflict';

export class FileSnapshotError extends FlowstackError {
  readonly reason: FileSnapshotErrorReason;
  readonly snapshotId?: string;
  readonly path?: string;
  constructor(options: {
    reason: FileSnapshotErrorReason;
    message: string;
    snapshotId?: string;
    path?: string;
    cause?: unknown;
  }) {
    super({
      name: 'FileSnapshotError',
      code: `file_snapshot_${options.reason}`,
      message: options.message,
      cause: options.cause,
    });
    this.reason = options.reason;
    if (options.snapshotId !== undefined) this.snapshotId = options.snapshotId;
    if (options.path !== undefined) this.path = options.path;
  }
  override toJSON() {
    return {
      ...super.toJSON(),
      reason: this.reason,
      ...(this.snapshotId !== undefined ? { snapshotId: this.snapshotId } : {}),
      ...(this.path !== undefined ? { path: this.path } : {}),
    };
  }
}
