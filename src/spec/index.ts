export type * from './flow-spec.js';
export type * from './json-schema.js';
export type * from './observation.js';
export type * from './skill-outcome.js';
export type * from './store-spec.js';
export type * from './thread-snapshot.js';
export { currentSnapshotVersion } from './thread-snapshot.js';
export type * from './tool-spec.js';
export { capabilityLevels } from './tool-spec.js';
