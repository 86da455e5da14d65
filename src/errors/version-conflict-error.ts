import { FlowstackError } from './flowstack-error.js';

/** A commit was based on a snapshot version that is no longer current (another writer got there first). */
export class VersionConflictError extends FlowstackError {
  readonly threadId: string;
  readonly expectedVersion: number;
  readonly actualVersion: number;
  constructor(options: { threadId: string; expectedVersion: number; actualVersion: number }) {
    super({
      name: 'VersionConflictError',
      code: 'version_conflict',
      message: `Thread '${options.threadId}' is at version ${options.actualVersion}, not ${options.expectedVersion}.`,
    });
    this.threadId = options.threadId;
    this.expectedVersion = options.expectedVersion;
    this.actualVersion = options.actualVersion;
  }
  override toJSON() {
    return {
      ...super.toJSON(),
      threadId: this.threadId,
      expectedVersion: this.expectedVersion,
      actualVersion: this.actualVersion,
    };
  }
}
