/**
 * The shapes of the safety pipeline's stages (DESIGN.md §4). A call passes the checks, then the guards,
 * then one execute, then the transforms, each row in order (`runPipeline` in `tool-pipeline.ts`). Stages
 * answer with data, never by throwing: every outcome is a `ToolCallResult`. A stage that only reads the call
 * answers at once; one that waits on a store, a limiter, a cache or a person answers with a promise
 * (docs/decisions/0064).
 */
import type { ToolCallResult } from '../spec/index.js';
import type { ToolCallState } from './tool-call-state.js';

/**
 * A step before the tool runs. It answers the call itself (a refusal, a replayed or cached result, a
 * suspension for a person) or returns `undefined` to let it go on, having recorded on the call's state
 * what it began (an audit row, a journal row, a file snapshot) for its transform to finish.
 */
export type Guard = (state: ToolCallState) => StageAnswer<ToolCallResult | undefined>;

/** What a stage answers: at once, or later when it has to wait for something outside the call. */
export type StageAnswer<T> = T | Promise<T>;

/** Runs the tool once and answers with its result. */
export type Execute = (state: ToolCallState) => Promise<ToolCallResult>;

/**
 * A step after the call was answered, by the tool or by a guard. It returns the result as it stands or a
 * new one; `execute` runs the tool again (the retry stage).
 */
export type Transform = (
  state: ToolCallState,
  result: ToolCallResult,
  execute: Execute,
) => StageAnswer<ToolCallResult>;

/** The stages of one pipeline, each row in the order it runs. */
export interface ToolPipeline {
  /**
   * What the call itself must be before anything else applies: a known tool, readable and valid
   * arguments. A call that fails one is answered as it is: nothing was begun for it.
   */
  readonly checks: readonly Guard[];
  /** The first guard that answers stops the row and the tool does not run. */
  readonly guards: readonly Guard[];
  readonly execute: Execute;
  /** Applied to every call past the checks, whoever answered it. */
  readonly transforms: readonly Transform[];
}
