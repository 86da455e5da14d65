/** A flow's run within a turn: its policy runs, what it returns is applied, recovery is routed, and Internal flows run in the background. */
export { type LoopContext, nextId } from './flow-loop-context.js';
export { fallBack, recoverFlow } from './recover-flow.js';
export { type BackgroundRunner, createBackgroundRunner } from './run-background-flows.js';
export { runActiveFlow } from './run-flow.js';
