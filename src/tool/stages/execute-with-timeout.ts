import type { ToolErrorCategory } from '../../spec/index.js';
import { errorResult, idempotencyKeyOf, successResult, type ToolStage } from '../tool-pipeline.js';

const categories = new Set<ToolErrorCategory>([
  'validation_error',
  'auth_error',
  'not_found',
  'rate_limit',
  'timeout',
  'server_error',
]);

/**
 * Runs the tool with its timeout. On timeout the signal is aborted and whatever the tool returns later
 * is discarded. A thrown error becomes a result; an error may carry a `category` to say what it was.
 * Text output starting with `Error:` is taken as the tool reporting a failure.
 */
export const executeWithTimeout: ToolStage = async (state) => {
  const tool = state.tool;
  if (!tool) return errorResult(state, 'not_found', 'No tool was resolved.');
  const controller = new AbortController();
  const outer = state.batch.signal;
  const onOuterAbort = () => controller.abort(outer?.reason);
  if (outer?.aborted)
    return errorResult(state, 'timeout', 'The call was cancelled before it started.', false);
  outer?.addEventListener('abort', onOuterAbort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), tool.timeoutMs);
  });
  const context = {
    idempotencyKey: idempotencyKeyOf(state),
    threadId: state.batch.threadId,
    callId: state.request.callId,
    signal: controller.signal,
  };
  try {
    const work = Promise.resolve().then(() => tool.execute(state.input, context));
    work.catch(() => undefined); // a late rejection after a timeout is discarded, not unhandled
    const settled = await Promise.race([work.then((output) => ({ output })), timedOut]);
    if (settled === 'timeout') {
      controller.abort(new Error('timeout'));
      return errorResult(
        state,
        'timeout',
        `The tool did not finish within ${tool.timeoutMs} ms.`,
        tool.idempotent,
      );
    }
    if (typeof settled.output === 'string' && /^error:/i.test(settled.output.trimStart())) {
      return errorResult(
        state,
        'server_error',
        settled.output.trim().slice(6).trim() || 'The tool reported an error.',
      );
    }
    return successResult(state, settled.output);
  } catch (error) {
    const category = (error as { category?: unknown })?.category;
    const known = typeof category === 'string' && categories.has(category as ToolErrorCategory);
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return errorResult(state, known ? (category as ToolErrorCategory) : 'server_error', message);
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onOuterAbort);
  }
};
