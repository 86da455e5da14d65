/**
 * The code half of a flow's policy (seed 000 hybrid model): small hooks a domain may give a flow. Each
 * is optional and synchronous, and returns data; the policy executor applies it and checks it.
 */
import type { DialogueFlags, FlowInstance, SkillOutcome } from '../spec/index.js';

/** A hard-coded fallback (seed 000): the flow to run instead, with slots mapped by name by default. */
export interface FallbackTarget {
  flow: string;
  /** Extra slot values for the new flow, over those mapped by name from the old one. */
  slots?: Record<string, unknown>;
  /** Why, for the observation and the reply. */
  reason: string;
}

/** An Internal flow to run in the background. `dependsOn` names earlier entries of the same request. */
export interface InternalFlowRequest {
  flow: string;
  slots?: Record<string, unknown>;
  dependsOn?: string[];
}

/** What a flow's `afterComplete` hook may change once its skill succeeded. */
export interface AfterCompleteEffects {
  /** Slot values to set (checked by `verify()`: a hook may not clear a slot). */
  slots?: Record<string, unknown>;
  flags?: Partial<DialogueFlags>;
  /** Internal flows to start in the background. */
  schedule?: InternalFlowRequest[];
}

export interface FlowHooks {
  /** Extra readiness problems for the pre-hook `check()`; an empty list means ready. */
  check?(flow: FlowInstance): string[];
  /**
   * Known failure modes with a fixed answer: return a target to fall back to (bypassing the recovery
   * ladder), or `undefined` to let `recover()` decide. Called on `failure` and `uncertain`, and on a
   * `success` whose data the hook recognizes as a dead end.
   */
  fallback?(context: { flow: FlowInstance; outcome: SkillOutcome }): FallbackTarget | undefined;
  /** Runs after a success, before the post-hook `verify()`. */
  afterComplete?(context: { flow: FlowInstance; data: unknown }): AfterCompleteEffects | undefined;
}
