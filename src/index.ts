/**
 * flowstack: a runtime for LLM task agents with a deterministic skeleton. This file re-exports each
 * folder's public names and nothing else.
 */
export * from './a2a/index.js';
export * from './agent/index.js';
export * from './consistency/index.js';
export * from './errors/index.js';
export * from './flow/index.js';
export * from './hitl/index.js';
export * from './loop/index.js';
export * from './memory/index.js';
export * from './model/index.js';
export * from './nlu/index.js';
export * from './observe/index.js';
export * from './plan/index.js';
export * from './policy/index.js';
export * from './redact/index.js';
export * from './respond/index.js';
export * from './schedule/index.js';
export * from './skill/index.js';
export type * from './spec/index.js';
export { capabilityLevels, currentSnapshotVersion } from './spec/index.js';
export * from './store/index.js';
export * from './tool/index.js';
export * from './util/index.js';
