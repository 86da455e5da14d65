/**
 * What the caller of a batch hands the tools of its own run (`ToolBatchContext.runScope`): flowstack's
 * component tools find their flow run's workspace here, so they are defined once, not per run. It rides
 * on the tool's execution context under a private key, out of the context's public shape.
 */
import type { ToolExecutionContext } from './tool-definition.js';

const runScopeKey = Symbol('flowstack.runScope');

type ScopedContext = ToolExecutionContext & { [runScopeKey]?: object };

/** The execution context of one attempt, carrying the batch's run scope when it has one. */
export function withRunScope(
  context: ToolExecutionContext,
  runScope: object | undefined,
): ToolExecutionContext {
  const scoped: ScopedContext = { ...context };
  if (runScope !== undefined) scoped[runScopeKey] = runScope;
  return scoped;
}

/** The batch's `runScope` for the call this context belongs to (`undefined` when the batch has none). */
export function runScopeOf(context: ToolExecutionContext): object | undefined {
  return (context as ScopedContext)[runScopeKey];
}
