/**
 * The tool's abort signal, made only when the tool reads it. Most tools never look at their signal,
 * and on Node 20 an `AbortController` costs more than the rest of a call's pipeline; a signal first
 * read after the call was aborted is already aborted.
 */
import type { ToolExecutionContext } from '../tool-definition.js';

export interface LazyAbort {
  controller: AbortController | undefined;
  abortedWith: { reason: unknown } | undefined;
}

const handle = Symbol('flowstack.abort');
const scope = Symbol('flowstack.runScope');

type ContextWithHandle = ToolExecutionContext & { [handle]: LazyAbort; [scope]: object | undefined };

/** The getter lives on one shared prototype, so a context costs no more to make than a plain object. */
const contextPrototype: object = Object.defineProperty({}, 'signal', {
  enumerable: true,
  get(this: ContextWithHandle): AbortSignal {
    const lazy = this[handle];
    if (!lazy.controller) {
      lazy.controller = new AbortController();
      if (lazy.abortedWith) lazy.controller.abort(lazy.abortedWith.reason);
    }
    return lazy.controller.signal;
  },
});

export function createLazyAbort(): LazyAbort {
  return { controller: undefined, abortedWith: undefined };
}

export function abortLazy(lazy: LazyAbort, reason: unknown): void {
  if (lazy.abortedWith) return;
  lazy.abortedWith = { reason };
  lazy.controller?.abort(reason);
}

/** A tool execution context whose `signal` comes from `lazy`. */
export function createExecutionContext(
  fields: Omit<ToolExecutionContext, 'signal'>,
  lazy: LazyAbort,
  runScope?: object,
): ToolExecutionContext {
  const context = Object.create(contextPrototype) as ContextWithHandle;
  context.idempotencyKey = fields.idempotencyKey;
  context.threadId = fields.threadId;
  context.callId = fields.callId;
  context.attempt = fields.attempt;
  context[handle] = lazy;
  context[scope] = runScope;
  return context;
}

/** The batch's `runScope` for the call this context belongs to (`undefined` when the batch has none). */
export function runScopeOf(context: ToolExecutionContext): object | undefined {
  return (context as Partial<ContextWithHandle>)[scope];
}
