export { ConfigurationError } from './configuration-error.js';
export { FlowstackError } from './flowstack-error.js';
export { InputError, type InputErrorReason } from './input-error.js';
export { ModelError } from './model-error.js';
export { SnapshotError, type SnapshotErrorReason } from './snapshot-error.js';
export { StackDepthError } from './stack-depth-error.js';
export { ThreadBusyError } from './thread-busy-error.js';
export { ThreadNotFoundError } from './thread-not-found-error.js';
export { VersionConflictError } from './version-conflict-error.js';
