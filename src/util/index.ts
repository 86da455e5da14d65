export {
  type BackoffDelayOptions,
  backoffDelayMs,
  jitterDelayMs,
  type RandomSource,
  systemRandom,
} from './backoff-delay.js';
export { beginWork } from './begin-work.js';
export { type Clock, systemClock } from './clock.js';
export { cloneData } from './clone-data.js';
export { copyWith } from './copy-with.js';
export { createDraft07Validator, createDraft2020Validator } from './create-json-schema-validator.js';
export { createSequentialIdGenerator, type IdGenerator, randomIdGenerator } from './id-generator.js';
export { type OptionalPeer, requireOptionalPeer } from './require-optional-peer.js';
export {
  type DeadlineOutcome,
  type RunWithinDeadlineOptions,
  runWithinDeadline,
  type WorkAbort,
} from './run-within-deadline.js';
export { onAbort } from './shared-waits/on-abort.js';
export { startTimer } from './shared-waits/start-timer.js';
export { canonicalJson, stableHash } from './stable-hash.js';
export { createStopController, type StopController, type StopSource } from './stop-source.js';
