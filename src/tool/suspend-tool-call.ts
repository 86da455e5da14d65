/**
 * How a tool's `execute` says it cannot finish without a human (seed 002: a tool "returns a status of
 * suspended"): it returns `suspendToolCall(reason)`, and the pipeline turns that into a `suspended`
 * result instead of a success. The call is not journaled as finished, so completing it later is up to
 * whoever resumes the suspension. A marker symbol rather than a shape, so no real output is mistaken
 * for a suspension.
 */
import type { FeedbackSchema } from '../spec/index.js';

const marker = Symbol.for('flowstack.tool-suspension');

export interface ToolSuspension {
  readonly [marker]: true;
  /** What the tool waits for, in words for the user. */
  readonly reason: string;
  /** The answer it takes (default: free text). */
  readonly feedback?: FeedbackSchema;
}

/**
 * @example
 * execute: async ({ amount }) =>
 *   amount > 1_000 ? suspendToolCall('Which account should pay?', { feedback: { type: 'select', options: ['ops', 'travel'] } }) : pay(amount),
 */
export function suspendToolCall(reason: string, options: { feedback?: FeedbackSchema } = {}): ToolSuspension {
  return options.feedback
    ? { [marker]: true, reason, feedback: options.feedback }
    : { [marker]: true, reason };
}

export function isToolSuspension(value: unknown): value is ToolSuspension {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
}
