import { FlowstackError } from '../errors/index.js';

/**
 * Why a store refused a call: it is closed, a commit is malformed (nothing was written), a journal entry
 * or audit record to finish does not exist, or a database has a store schema this flowstack cannot read
 * (usually because a newer flowstack wrote it).
 */
export type StoreErrorReason = 'closed' | 'invalid_commit' | 'not_found' | 'unsupported_schema';

/**
 * A state store cannot do what was asked. Snapshot contents are never the cause (that is a
 * `SnapshotError`), and stale versions are a `VersionConflictError`.
 */
export class StoreError extends FlowstackError {
  readonly reason: StoreErrorReason;
  readonly store: string;
  constructor(options: { reason: StoreErrorReason; store: string; message: string; cause?: unknown }) {
    super({
      name: 'StoreError',
      code: `store_${options.reason}`,
      message: options.message,
      cause: options.cause,
    });
    this.reason = options.reason;
    this.store = options.store;
  }
  override toJSON() {
    return { ...super.toJSON(), reason: this.reason, store: this.store };
  }
}
